import { describe, expect, it } from "vitest";
import { now } from "./clock.server";
import { advanceClock, resetClockAfterEach } from "~/testing/clock";
import { clientAddressOf, rateLimitIdentity, type ProxyTrust } from "./client-address.server";
import { db } from "./db.server";
import { parseEnv } from "./env.server";
import { pruneRateLimits, takeAttempt } from "./rate-limit.server";

resetClockAfterEach();

describe("the client a rate limit counts", () => {
  const socketOnly: ProxyTrust = { header: null, hops: 1, fly: false };

  it("is an IPv6 client's /64, and an IPv4-mapped address's IPv4 address", () => {
    expect(rateLimitIdentity("2001:db8:1:2::5")).toBe(rateLimitIdentity("2001:db8:1:2::9"));
    expect(rateLimitIdentity("2001:db8:1:2::5")).toBe("2001:db8:1:2::/64");
    expect(rateLimitIdentity("2001:0db8:0001:0002:ffff:0:0:1")).toBe("2001:db8:1:2::/64");
    expect(rateLimitIdentity("2001:db8:1:3::5")).not.toBe(rateLimitIdentity("2001:db8:1:2::5"));
    expect(rateLimitIdentity("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(rateLimitIdentity("::1")).toBe("0:0:0:0::/64");
    expect(rateLimitIdentity("::ffff:1.2.3.4")).toBe("1.2.3.4");
    expect(rateLimitIdentity("::FFFF:1.2.3.4")).toBe("1.2.3.4");
    expect(rateLimitIdentity("::ffff:0102:0304")).toBe("1.2.3.4");
    expect(rateLimitIdentity("0:0:0:0:0:ffff:1.2.3.4")).toBe("1.2.3.4");
    expect(rateLimitIdentity("1.2.3.4")).toBe("1.2.3.4");
    expect(clientAddressOf({}, "::ffff:203.0.113.7", socketOnly)).toBe("203.0.113.7");
    expect(clientAddressOf({}, "2001:db8:1:2::5", socketOnly)).toBe(clientAddressOf({}, "2001:db8:1:2::9", socketOnly));
  });

  it("comes from the socket unless a proxy of ours is configured: a forwarded header anyone can send is ignored", () => {
    const forged = { "x-forwarded-for": "1.1.1.1", "x-real-ip": "2.2.2.2", "fly-client-ip": "3.3.3.3" };
    expect(clientAddressOf(forged, "10.0.0.1", socketOnly)).toBe("10.0.0.1");
    expect(clientAddressOf(forged, undefined, socketOnly)).toBe("unknown");
  });

  it("is Fly-Client-IP only on Fly", () => {
    const onFly: ProxyTrust = { header: null, hops: 1, fly: true };
    expect(clientAddressOf({ "fly-client-ip": "1.2.3.4", "x-forwarded-for": "9.9.9.9" }, "10.0.0.1", onFly)).toBe(
      "1.2.3.4",
    );
    expect(clientAddressOf({ "fly-client-ip": "2001:db8:1:2::5" }, "10.0.0.1", onFly)).toBe("2001:db8:1:2::/64");
    expect(clientAddressOf({}, "10.0.0.1", onFly)).toBe("10.0.0.1");
    expect(clientAddressOf({ "fly-client-ip": "not an address" }, "10.0.0.1", onFly)).toBe("10.0.0.1");
  });

  it("is the header a trusted proxy sets (X-Real-IP), and nothing else", () => {
    const realIp: ProxyTrust = { header: "x-real-ip", hops: 1, fly: true };
    expect(
      clientAddressOf(
        { "x-real-ip": "198.51.100.4", "fly-client-ip": "3.3.3.3", "x-forwarded-for": "1.1.1.1" },
        "10.0.0.1",
        realIp,
      ),
    ).toBe("198.51.100.4");
    expect(clientAddressOf({ "x-real-ip": "[2001:db8:1:2::5]:443" }, "10.0.0.1", realIp)).toBe("2001:db8:1:2::/64");
    // Missing or not an address: the proxy's own address, one budget for everyone behind it rather than one per forgery.
    expect(clientAddressOf({}, "10.0.0.1", realIp)).toBe("10.0.0.1");
    expect(clientAddressOf({ "x-real-ip": "evil, 1.2.3.4" }, "10.0.0.1", realIp)).toBe("10.0.0.1");
  });

  it("is the X-Forwarded-For entry the trusted proxies wrote: the right-most one, or TRUST_PROXY_HOPS from the right", () => {
    const oneProxy: ProxyTrust = { header: "x-forwarded-for", hops: 1, fly: false };
    const twoProxies: ProxyTrust = { header: "x-forwarded-for", hops: 2, fly: false };
    // The client sent "6.6.6.6" itself; the proxy appended the address it saw.
    expect(clientAddressOf({ "x-forwarded-for": "6.6.6.6, 198.51.100.4" }, "10.0.0.1", oneProxy)).toBe("198.51.100.4");
    expect(clientAddressOf({ "x-forwarded-for": "198.51.100.4" }, "10.0.0.1", oneProxy)).toBe("198.51.100.4");
    expect(clientAddressOf({ "x-forwarded-for": "6.6.6.6, 203.0.113.9:5123" }, "10.0.0.1", oneProxy)).toBe(
      "203.0.113.9",
    );
    // A CDN, then a load balancer: the balancer appended the CDN's address, the CDN the client's.
    expect(clientAddressOf({ "x-forwarded-for": "6.6.6.6, 198.51.100.4, 192.0.2.10" }, "10.0.0.1", twoProxies)).toBe(
      "198.51.100.4",
    );
    expect(clientAddressOf({ "x-forwarded-for": "192.0.2.10" }, "10.0.0.1", twoProxies)).toBe("10.0.0.1");
    expect(clientAddressOf({}, "10.0.0.1", oneProxy)).toBe("10.0.0.1");
  });

  it("reads TRUST_PROXY_HEADER and TRUST_PROXY_HOPS from the environment", () => {
    const parseEnvWith = (variables: Record<string, string>) =>
      parseEnv({ NODE_ENV: "test", DATA_DIR: process.env.DATA_DIR, ...variables });
    expect(parseEnvWith({ TRUST_PROXY_HEADER: "X-Real-IP" }).TRUST_PROXY_HEADER).toBe("x-real-ip");
    expect(parseEnvWith({ TRUST_PROXY_HEADER: "" }).TRUST_PROXY_HEADER).toBeUndefined();
    expect(parseEnvWith({}).TRUST_PROXY_HOPS).toBe(1);
    expect(parseEnvWith({ TRUST_PROXY_HEADER: "X-Forwarded-For", TRUST_PROXY_HOPS: "2" }).TRUST_PROXY_HOPS).toBe(2);
    expect(() => parseEnvWith({ TRUST_PROXY_HEADER: "X Real IP" })).toThrow(/TRUST_PROXY_HEADER/);
    expect(() => parseEnvWith({ TRUST_PROXY_HEADER: "Forwarded" })).toThrow(/TRUST_PROXY_HEADER/);
    expect(() => parseEnvWith({ TRUST_PROXY_HOPS: "0" })).toThrow(/TRUST_PROXY_HOPS/);
  });
});

describe("pruning rate limits", () => {
  const rowsOf = (prefix: string) =>
    db
      .selectFrom("rate_limits")
      .select("key")
      .where("key", "like", `${prefix}%`)
      .orderBy("key")
      .execute()
      .then((rows) => rows.map((row) => row.key));

  it("deletes each row once its own window has ended, whatever the window's length, and keeps the counts of open windows", async () => {
    const minute = { max: 2, windowSeconds: 60 };
    const day = { max: 2, windowSeconds: 24 * 3600 };
    // Windows are aligned to their length: start at a day's beginning so the minute window ends first.
    const second = Math.floor(now().getTime() / 1000);
    advanceClock((24 * 3600 - (second % (24 * 3600))) * 1000);
    expect(await takeAttempt("prune:minute", minute)).toBe(true);
    expect(await takeAttempt("prune:minute", minute)).toBe(true);
    expect(await takeAttempt("prune:day", day)).toBe(true);
    expect(await takeAttempt("prune:day", day)).toBe(true);

    await pruneRateLimits();
    expect(await rowsOf("prune:")).toEqual(["prune:day", "prune:minute"]);

    advanceClock(61_000);
    await pruneRateLimits();
    expect(await rowsOf("prune:")).toEqual(["prune:day"]);
    // The day's count survived pruning: its budget is still spent.
    expect(await takeAttempt("prune:day", day)).toBe(false);

    advanceClock(24 * 3600 * 1000);
    await pruneRateLimits();
    expect(await rowsOf("prune:")).toEqual([]);
  });

  it("gives a row's expiry a new window's end when the key is used again", async () => {
    const minute = { max: 5, windowSeconds: 60 };
    await takeAttempt("again:minute", minute);
    advanceClock(60_000);
    await takeAttempt("again:minute", minute);
    await pruneRateLimits();
    expect(await rowsOf("again:")).toEqual(["again:minute"]);
  });
});
