import type { Page } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { fullChromium } from "../../playwright.config";
import { browserKeys, decryptPush, startFakePushService, type FakePushService } from "../../app/testing/push-service";
import { pushDevicesOf, userIdOf } from "./database";
import { dayAhead, ownerWithDog, sitterAvailableOn, signIn } from "./people";
import { expect, test, visit } from "./support";

// Chromium subscribes through Google's push service, out of reach here: the page's PushManager hands out a
// subscription to a stand-in on a loopback port instead (the port start-server.js told the app), with keys
// made here, so the test reads each push as the browser would. Everything else is the real page and server.
test.describe.configure({ mode: "serial" });
test.use({ serviceWorkers: "allow", launchOptions: fullChromium });

let service: FakePushService;
test.afterEach(async () => service?.close());

async function withStandInPushManager(page: Page, endpoint: string, keys: { p256dh: string; auth: string }) {
  await page.context().addInitScript(
    ({ endpoint, p256dh, auth }) => {
      const bytes = (base64url: string) =>
        Uint8Array.from(atob(base64url.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
      const subscription = (serverKey: string) => ({
        endpoint,
        expirationTime: null,
        options: { userVisibleOnly: true, applicationServerKey: bytes(serverKey).buffer },
        getKey: (name: string) => bytes(name === "p256dh" ? p256dh : auth).buffer,
        toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
        unsubscribe: async () => (localStorage.removeItem("stand-in-push"), true),
      });
      const base64url = (key: ArrayBuffer | Uint8Array) =>
        btoa(String.fromCharCode(...new Uint8Array(key instanceof Uint8Array ? key : new Uint8Array(key))))
          .replace(/\+/g, "-")
          .replace(/\//g, "_")
          .replace(/=+$/, "");
      PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
        localStorage.setItem("stand-in-push", base64url(options!.applicationServerKey as ArrayBuffer));
        return subscription(localStorage.getItem("stand-in-push")!) as unknown as PushSubscription;
      };
      PushManager.prototype.getSubscription = async function () {
        const key = localStorage.getItem("stand-in-push");
        return (key ? subscription(key) : null) as unknown as PushSubscription | null;
      };
    },
    { endpoint, ...keys },
  );
}

test("a sitter turns push on, gets a test and an owner's booking request from another browser, turns it off, and a 410 forgets the device", async ({
  page,
  browser,
  request,
  jsEnabled,
}) => {
  test.skip(!jsEnabled, "push needs JavaScript (the page without it says so: push.spec.ts)");
  test.setTimeout(180_000);
  service = await startFakePushService(Number(process.env.E2E_PORT ?? 3210) + 7);
  const day = await dayAhead(request, 3);
  const sitter = await sitterAvailableOn(page, jsEnabled, day, { name: "Pia Push", city: "Svolvær", rate: 20 });
  const keys = browserKeys();
  const path = `/push/${randomUUID()}`;
  await withStandInPushManager(page, `${service.origin}${path}`, keys);
  await page.context().grantPermissions(["notifications"]);
  const pushes = () =>
    service.received
      .filter((push) => push.path === path)
      .map((push) => JSON.parse(decryptPush(push.body, keys)) as { title: string; body: string; link: string });

  await signIn(page, sitter);
  await visit(page, "/settings");
  const section = page.getByRole("region", { name: "Notifications on this device" });
  await section.getByRole("button", { name: "Turn on" }).click();
  await expect(section.getByText("Notifications are on for this device.")).toBeVisible();
  expect(pushDevicesOf(sitter.email)).toBe(1);
  await section.getByRole("button", { name: "Send a test" }).click();
  await expect(section.getByText("A test is on its way.")).toBeVisible();
  await expect
    .poll(pushes)
    .toEqual([{ title: "Notifications work", body: expect.any(String), link: "/settings", badge: expect.any(Number) }]);

  // The owner, in a browser of their own, asks for two hours and pays: the sitter's device hears of it once.
  const ownerBrowser = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const ownerPage = await ownerBrowser.newPage();
  try {
    const owner = await ownerWithDog(ownerPage, true, { name: "Otto Pusher", city: "Svolvær", dog: "Nanook" });
    const book = async (time: string) => {
      await ownerPage.goto(`/booking/request?walkerId=${userIdOf(sitter.email)}&date=${day}`);
      await ownerPage.getByLabel("Start time").selectOption(time);
      await ownerPage.getByRole("button", { name: "Send Booking Request" }).click();
      await expect(ownerPage.getByRole("heading", { name: "Complete Your Booking" })).toBeVisible();
      if (await ownerPage.getByLabel("Card number").isVisible()) {
        await ownerPage.getByLabel("Name on card").fill(owner.name);
        await ownerPage.getByLabel("Card number").fill("4242 4242 4242 4242");
        await ownerPage.getByLabel("Expiry (MM/YY)").fill("12/30");
        await ownerPage.getByLabel("CVC").fill("123");
      }
      await ownerPage.getByRole("button", { name: /^Pay / }).click();
      await expect(ownerPage.getByText(/Request sent!/)).toBeVisible();
    };
    await book("10:00");
    await expect.poll(() => pushes().length).toBe(2);
    expect(pushes()[1]).toMatchObject({ title: expect.stringContaining(owner.name), link: "/bookings" });
    expect(pushes()[1]!.body).toContain("Nanook");

    // Turned off: the next request reaches the app, not the device.
    await section.getByRole("button", { name: "Turn off" }).click();
    await expect(section.getByText("Notifications are off for this device.")).toBeVisible();
    expect(pushDevicesOf(sitter.email)).toBe(0);
    await book("14:00");
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(pushes()).toHaveLength(2);
  } finally {
    await ownerBrowser.close();
  }

  // On again; the push service then says the subscription is gone (410): the device is forgotten.
  await section.getByRole("button", { name: "Turn on" }).click();
  await expect(section.getByText("Notifications are on for this device.")).toBeVisible();
  service.answer.set(path, 410);
  await section.getByRole("button", { name: "Send a test" }).click();
  await expect.poll(() => pushes().length).toBe(3);
  await expect.poll(() => pushDevicesOf(sitter.email)).toBe(0);
  await section.getByRole("button", { name: "Send a test" }).click();
  await expect(section.getByText("This device has no notifications turned on.")).toBeVisible();
});
