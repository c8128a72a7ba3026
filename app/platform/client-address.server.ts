import type { IncomingHttpHeaders } from "node:http";
import { isIP, isIPv4, isIPv6 } from "node:net";
import { env } from "./env.server";

export interface ProxyTrust {
  header: string | null;
  hops: number;
  fly: boolean;
}

export const proxyTrust: ProxyTrust = {
  header: env.TRUST_PROXY_HEADER ?? null,
  hops: env.TRUST_PROXY_HOPS,
  fly: Boolean(env.FLY_APP_NAME),
};

// IPv6 counts by /64: a home or a phone usually gets a whole /64, so single addresses would give one person 2^64 budgets.
export function clientAddressOf(
  headers: IncomingHttpHeaders,
  socketAddress: string | undefined,
  trust: ProxyTrust = proxyTrust,
): string {
  const address = forwardedAddress(headers, trust) ?? socketAddress;
  return address ? rateLimitIdentity(address) : "unknown";
}

function forwardedAddress(headers: IncomingHttpHeaders, trust: ProxyTrust): string | undefined {
  if (trust.header) {
    const value = headers[trust.header];
    if (typeof value !== "string") return undefined;
    if (trust.header !== "x-forwarded-for") return plainAddress(value);
    // Each proxy appends the address it was reached from, so only the right-most `hops` entries
    // were written by proxies of ours; whatever is left of them the client could have sent.
    const entries = value
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean);
    const entry = entries[entries.length - trust.hops];
    return entry === undefined ? undefined : plainAddress(entry);
  }
  if (trust.fly) {
    const value = headers["fly-client-ip"];
    return typeof value === "string" ? plainAddress(value) : undefined;
  }
  return undefined;
}

function plainAddress(text: string): string | undefined {
  let address = text.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(":"));
  return isIP(address.split("%")[0]!) ? address : undefined;
}

export function rateLimitIdentity(address: string): string {
  const plain = address.split("%")[0]!;
  if (isIPv4(plain)) return plain;
  const groups = ipv6Groups(plain);
  if (!groups) return address;
  const isIPv4Mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (isIPv4Mapped) return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

function ipv6Groups(address: string): number[] | null {
  if (!isIPv6(address)) return null;
  let text = address;
  const tail: number[] = [];
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    tail.push((a << 8) | b, (c << 8) | d);
    text = text.slice(0, dotted.index);
    if (text.endsWith(":") && !text.endsWith("::")) text = text.slice(0, -1);
  }
  const [head, rest] = text.split("::") as [string, string | undefined];
  const groupsOf = (part: string) => (part === "" ? [] : part.split(":").map((group) => parseInt(group, 16)));
  const left = groupsOf(head);
  const right = [...(rest === undefined ? [] : groupsOf(rest)), ...tail];
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (rest === undefined && missing !== 0)) return null;
  return [...left, ...new Array<number>(missing).fill(0), ...right];
}
