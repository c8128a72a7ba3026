/** A short name for a device from its User-Agent ("Firefox · Android"), shown in the list of devices. */
export function deviceLabel(userAgent: string | null): string {
  const agent = userAgent ?? "";
  const browser = /Edg\//.test(agent)
    ? "Edge"
    : /OPR\//.test(agent)
      ? "Opera"
      : /SamsungBrowser\//.test(agent)
        ? "Samsung Internet"
        : /Firefox\/|FxiOS\//.test(agent)
          ? "Firefox"
          : /Chrome\/|CriOS\//.test(agent)
            ? "Chrome"
            : /Safari\//.test(agent)
              ? "Safari"
              : "Browser";
  const system = /Android/.test(agent)
    ? "Android"
    : /iPhone/.test(agent)
      ? "iPhone"
      : /iPad/.test(agent)
        ? "iPad"
        : /Windows/.test(agent)
          ? "Windows"
          : /CrOS/.test(agent)
            ? "ChromeOS"
            : /Mac OS X|Macintosh/.test(agent)
              ? "macOS"
              : /Linux/.test(agent)
                ? "Linux"
                : "";
  return system ? `${browser} · ${system}` : browser;
}
