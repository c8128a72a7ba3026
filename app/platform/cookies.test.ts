import { afterEach, describe, expect, it, vi } from "vitest";

/** The app's cookies as Set-Cookie values, from modules loaded fresh with APP_URL set to `appUrl`. */
async function cookiesServedFrom(appUrl: string | undefined) {
  vi.resetModules();
  vi.stubEnv("APP_URL", appUrl);
  const { toastHeader } = await import("./toast.server");
  const { languageCookie } = await import("./i18n.server");
  const { startSession } = await import("./session.server");
  const { person } = await import("~/testing/people");
  const { rememberAddress } = await import("~/features/auth/outbox-access.server");
  const { rememberDevice } = await import("~/features/auth/known-devices.server");
  const someone = await person("owner");
  return {
    device: await rememberDevice(new Request("http://localhost/auth"), someone.id),
    outbox: (await rememberAddress(new Request("http://localhost/auth"), "someone@example.com")) ?? "no outbox cookie",
    toast: await toastHeader({ type: "success", title: "profile:saved" }),
    language: await languageCookie.serialize("de"),
    session: await startSession(someone.id),
  };
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("cookies", () => {
  it("are all Secure when the app is served over https", async () => {
    const cookies = await cookiesServedFrom("https://app.example");
    for (const [name, cookie] of Object.entries(cookies)) expect(cookie, name).toMatch(/;\s*Secure/i);
  });

  it("are not Secure over plain http (local development), or a browser would drop them", async () => {
    const cookies = await cookiesServedFrom("http://localhost:3000");
    for (const [name, cookie] of Object.entries(cookies)) expect(cookie, name).not.toMatch(/;\s*Secure/i);
  });
});
