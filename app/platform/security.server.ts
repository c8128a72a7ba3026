import { randomBytes } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

export interface HeaderOptions {
  nonce: string;
  https: boolean;
  /** The Vite dev server injects scripts and a websocket of its own. */
  development: boolean;
}

/** Headers sent with every response. Pages that need another origin (the card form) widen CSP themselves. */
export function securityHeaders({ nonce, https, development }: HeaderOptions): Record<string, string> {
  const csp = [
    "default-src 'self'",
    development ? "script-src 'self' 'unsafe-inline'" : `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    development ? "connect-src 'self' ws: wss:" : "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "manifest-src 'self'",
    "worker-src 'self'",
  ].join("; ");
  return {
    "Content-Security-Policy": csp,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": "geolocation=(self), camera=(), microphone=(), payment=(self)",
    "Cross-Origin-Opener-Policy": "same-origin",
    ...(https ? { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" } : {}),
  };
}

/**
 * A state-changing request from another site is refused. Browsers send Origin on every POST;
 * Sec-Fetch-Site covers the rare one that does not.
 */
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

/** Fly's proxy sets Fly-Client-IP; anywhere else a forwarded header could be forged, so the socket decides. */
export function clientAddressOf(headers: IncomingHttpHeaders, socketAddress: string | undefined): string {
  const flyClientIp = headers["fly-client-ip"];
  if (process.env.FLY_APP_NAME && typeof flyClientIp === "string") return flyClientIp;
  return socketAddress ?? "unknown";
}
