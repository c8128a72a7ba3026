import { isIP } from "node:net";
import { env } from "~/platform/env.server";

/*
 * Which subscriptions we accept. An endpoint is a URL our server will POST to, so it must be a push
 * service, never an address of the attacker's choosing (our own network, a loopback port, any web
 * site): https on a known push service's host only. Tests add one local fake service through
 * PUSH_TEST_SERVICE_ORIGIN, which the environment accepts only in TEST_MODE and unit tests.
 */
const PUSH_SERVICE_HOSTS = new Set([
  "fcm.googleapis.com", // Chrome, Edge on Android, Samsung Internet, Opera
  "android.googleapis.com",
  "updates.push.services.mozilla.com", // Firefox
  "web.push.apple.com", // Safari, home-screen apps on iOS 16.4+
]);
const PUSH_SERVICE_SUFFIXES = [".notify.windows.com", ".push.apple.com"]; // Edge on Windows (wns2-*), Apple's regions

export const MAX_ENDPOINT_LENGTH = 2048;

export function acceptedEndpoint(endpoint: string): boolean {
  if (endpoint.length > MAX_ENDPOINT_LENGTH) return false;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  const testOrigin = env.PUSH_TEST_SERVICE_ORIGIN;
  if (testOrigin && (env.TEST_MODE || env.NODE_ENV === "test") && url.origin === new URL(testOrigin).origin)
    return true;
  if (url.protocol !== "https:" || (url.port !== "" && url.port !== "443")) return false;
  const host = url.hostname.toLowerCase();
  // An address typed as digits is never a push service (and may be our own network).
  if (isIP(host.replace(/^\[|\]$/g, "")) !== 0) return false;
  return PUSH_SERVICE_HOSTS.has(host) || PUSH_SERVICE_SUFFIXES.some((suffix) => host.endsWith(suffix));
}

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** A base64url key decoded, or null when it is not base64url or not `length` bytes long. */
export function keyBytes(value: string, length: number): Buffer | null {
  if (!BASE64URL.test(value) || value.length > 200) return null;
  const bytes = Buffer.from(value.replace(/=+$/, ""), "base64url");
  return bytes.length === length ? bytes : null;
}

/** The browser's P-256 key: 65 bytes, an uncompressed point (first byte 4). */
export const validP256dh = (value: string) => keyBytes(value, 65)?.[0] === 0x04;
/** The browser's authentication secret: 16 bytes. */
export const validAuth = (value: string) => keyBytes(value, 16) !== null;
