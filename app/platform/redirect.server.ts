const DUMMY_ORIGIN = "https://app.invalid";

export const REDIRECT_TARGET_MAX_LENGTH = 2000;

// Browsers drop tab and line breaks from a Location and read a backslash as a slash, so
// `/\t/evil.example` and `/\evil.example` both lead off-site.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE_CHARACTER = /[\u0000-\u001F\u007F-\u009F\s\\]/u;

// Normalized, so dot segments cannot leave a leading `//` that a browser reads as another origin.
export function safeRedirectTarget(value: unknown, fallback: string): string {
  if (typeof value !== "string" || value.length > REDIRECT_TARGET_MAX_LENGTH) return fallback;
  if (!value.startsWith("/") || value.startsWith("//") || UNSAFE_CHARACTER.test(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, DUMMY_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== DUMMY_ORIGIN) return fallback;
  const target = `${url.pathname}${url.search}${url.hash}`;
  // "/.//evil.example" resolves to the path "//evil.example".
  if (target.startsWith("//") || target.length > REDIRECT_TARGET_MAX_LENGTH) return fallback;
  return target;
}
