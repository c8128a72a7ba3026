import { randomBytes } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

export interface HeaderOptions {
  nonce: string;
  https: boolean;
  development: boolean;
}

export type CspSources = Partial<
  Record<
    "script-src" | "frame-src" | "connect-src" | "img-src" | "style-src" | "font-src" | "form-action",
    readonly string[]
  >
>;

export function contentSecurityPolicy({
  nonce,
  development,
  extra = {},
}: {
  nonce: string;
  development: boolean;
  extra?: CspSources;
}): string {
  const directives: [string, string[]][] = [
    ["default-src", ["'self'"]],
    ["script-src", development ? ["'self'", "'unsafe-inline'"] : ["'self'", `'nonce-${nonce}'`]],
    ["style-src", ["'self'", "'unsafe-inline'"]],
    ["img-src", ["'self'", "data:", "blob:"]],
    ["media-src", ["'self'", "blob:"]],
    ["connect-src", development ? ["'self'", "ws:", "wss:"] : ["'self'"]],
    ["font-src", ["'self'"]],
    ["object-src", ["'none'"]],
    ["base-uri", ["'self'"]],
    ["form-action", ["'self'"]],
    ["frame-ancestors", ["'none'"]],
    ["manifest-src", ["'self'"]],
    ["worker-src", ["'self'"]],
  ];
  // A directive the default policy leaves to default-src starts from 'self', like default-src.
  for (const name of Object.keys(extra))
    if (!directives.some(([known]) => known === name)) directives.push([name, ["'self'"]]);
  return directives
    .map(([name, sources]) => [name, ...sources, ...(extra[name as keyof CspSources] ?? [])].join(" "))
    .join("; ");
}

export function cspSourcesOf(handles: unknown[]): CspSources {
  const merged: Record<string, string[]> = {};
  for (const handle of handles) {
    const csp = (handle as { csp?: CspSources } | undefined)?.csp;
    for (const [name, sources] of Object.entries(csp ?? {}))
      merged[name] = [...new Set([...(merged[name] ?? []), ...sources])];
  }
  return merged;
}

export function securityHeaders({ nonce, https, development }: HeaderOptions): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy({ nonce, development }),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": "geolocation=(self), camera=(), microphone=(), payment=(self)",
    "Cross-Origin-Opener-Policy": "same-origin",
    ...(https ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {}),
  };
}

// Browsers send Origin on every POST; Sec-Fetch-Site covers the rare one that does not.
export function isCrossSiteWrite(method: string, headers: IncomingHttpHeaders): boolean {
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return false;
  const origin = headers.origin;
  if (origin && origin !== "null") {
    try {
      return new URL(origin).host !== headers.host;
    } catch {
      return true;
    }
  }
  if (origin === "null") return true;
  return headers["sec-fetch-site"] === "cross-site";
}
