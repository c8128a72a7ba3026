import { randomUUID } from "node:crypto";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "~db/schema";
import { browserKeys, decryptPush, startFakePushService, type BrowserKeys } from "~/testing/push-service";

// The push service the app posts to is a local one; the environment accepts its origin in unit tests only.
const service = await startFakePushService();
process.env.PUSH_TEST_SERVICE_ORIGIN = service.origin;

const { db, databaseEngine } = await import("~/platform/db.server");
const { withAdvisoryLock } = await import("~/platform/exclusive.server");
const { advanceClock, resetClockAfterEach, MINUTE } = await import("~/testing/clock");
const { person, matchOf, PASSWORD } = await import("~/testing/people");
const { deleteAccount } = await import("~/features/account/index.server");
const { card, ownerWithPet, requested, sitterWithSlot } = await import("~/testing/bookings");
const { payForBooking } = await import("~/features/bookings/index.server");
const { translatorFor } = await import("~/platform/i18n.server");
const { blockPerson } = await import("~/features/safety/index.server");
const { ensureConversation } = await import("~/features/messages/conversations.server");
const { sendMessage } = await import("~/features/messages/messages.server");
const { notify } = await import("~/features/notifications/index.server");
const { handlePushAction } = await import("./actions.server");
const { deliverPendingPushes } = await import("./outbox.server");
const { vapidKeys } = await import("./keys.server");
const { parseEnv } = await import("~/platform/env.server");
const { saveSubscription, removeSubscription, exportSubscriptions, MAX_SUBSCRIPTIONS_PER_PERSON } =
  await import("./subscriptions.server");

resetClockAfterEach();
afterAll(() => service.close());
beforeEach(() => {
  service.received.length = 0;
  service.answer.clear();
});

const ANDROID_CHROME = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36";

async function device(userId: string, keys: BrowserKeys = browserKeys()) {
  const path = `/push/${randomUUID()}`;
  const saved = await saveSubscription(
    userId,
    { endpoint: `${service.origin}${path}`, p256dh: keys.p256dh, auth: keys.auth },
    ANDROID_CHROME,
  );
  expect(saved).toMatchObject({ ok: true });
  return { path, endpoint: `${service.origin}${path}`, keys };
}

const pushesTo = (path: string) => service.received.filter((push) => push.path === path);
const readPush = (body: Buffer, keys: BrowserKeys) =>
  JSON.parse(decryptPush(body, keys)) as { title: string; body: string; link: string; badge: number };
/** Chat and matches follow the "messages" choice, which is off for a new account. */
const wantsMessages = (userId: string) =>
  db.updateTable("users").set({ email_messages: 1 }).where("id", "=", userId).execute();

const subscriptionCount = async (userId: string) =>
  Number(
    (
      await db
        .selectFrom("push_subscriptions")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("user_id", "=", userId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("pushes through the outbox", () => {
  it("sends a booking request once, encrypted for the device, in the sitter's language with a link", async () => {
    const sitter = await sitterWithSlot();
    await db.updateTable("users").set({ language: "es" }).where("id", "=", sitter.id).execute();
    const phone = await device(sitter.id);
    const owner = await ownerWithPet();
    const booking = await requested(owner, sitter);
    await deliverPendingPushes();
    expect(pushesTo(phone.path)).toHaveLength(0); // asked of the sitter once the card is held
    expect(await payForBooking(owner, booking.id, card(), randomUUID())).toEqual({ status: "held" });

    await deliverPendingPushes();
    const [push, ...more] = pushesTo(phone.path);
    expect(more).toHaveLength(0);
    expect(push!.headers["content-encoding"]).toBe("aes128gcm");
    expect(push!.headers.authorization).toMatch(/^vapid t=.+, k=/);
    const payload = readPush(push!.body, phone.keys);
    const t = await translatorFor("es", "notifications");
    expect(payload.title).toBe(
      t("types.booking_request.title", { name: owner.name, interpolation: { escapeValue: false } }),
    );
    expect(payload.title).toContain(owner.name);
    expect(payload.body).toContain((await db.selectFrom("pets").select("name").executeTakeFirstOrThrow()).name);
    expect(payload.link).toBe("/bookings");
    expect(payload.badge).toBe(1);

    // Nothing is sent twice: a second round (or another instance's) finds it done.
    await deliverPendingPushes();
    expect(pushesTo(phone.path)).toHaveLength(1);
  });

  it("follows the person's bookings choice", async () => {
    const sitter = await sitterWithSlot();
    await db.updateTable("users").set({ email_bookings: 0 }).where("id", "=", sitter.id).execute();
    const phone = await device(sitter.id);
    const owner = await ownerWithPet();
    const booking = await requested(owner, sitter);
    expect(await payForBooking(owner, booking.id, card(), randomUUID())).toEqual({ status: "held" });
    await deliverPendingPushes();
    expect(pushesTo(phone.path)).toHaveLength(0);
  });

  it("deletes a subscription the push service answers 410 for, and its pushes with it", async () => {
    const someone = await person("owner");
    await wantsMessages(someone.id);
    const gone = await device(someone.id);
    const kept = await device(someone.id);
    service.answer.set(gone.path, 410);
    await notify({ userId: someone.id, type: "match", data: { name: "Ana" }, link: "/messages?userId=x" });
    await deliverPendingPushes();
    expect(pushesTo(gone.path)).toHaveLength(1);
    expect(pushesTo(kept.path)).toHaveLength(1);
    expect(readPush(pushesTo(kept.path)[0]!.body, kept.keys).title).toBe("It's a match!");
    expect(await subscriptionCount(someone.id)).toBe(1);
    await notify({ userId: someone.id, type: "match", data: { name: "Bea" }, link: "/messages?userId=y" });
    await deliverPendingPushes();
    expect(pushesTo(gone.path)).toHaveLength(1);
    expect(pushesTo(kept.path)).toHaveLength(2);
  });

  it("retries a push the service could not take, later, and sends it once", async () => {
    const someone = await person("owner");
    await wantsMessages(someone.id);
    const phone = await device(someone.id);
    service.answer.set(phone.path, 503);
    await notify({ userId: someone.id, type: "match", data: { name: "Ana" }, link: "/messages" });
    await deliverPendingPushes();
    expect(pushesTo(phone.path)).toHaveLength(1);
    const waiting = await db
      .selectFrom("push_outbox")
      .selectAll()
      .where("user_id", "=", someone.id)
      .executeTakeFirstOrThrow();
    expect(waiting).toMatchObject({ attempts: 1, sent_at: null, failed_at: null });
    expect(waiting.next_try_at).not.toBeNull();

    service.answer.delete(phone.path);
    await deliverPendingPushes(); // not due yet
    expect(pushesTo(phone.path)).toHaveLength(1);
    advanceClock(MINUTE);
    await deliverPendingPushes();
    await deliverPendingPushes();
    expect(pushesTo(phone.path)).toHaveLength(2);
    const sent = await db
      .selectFrom("push_outbox")
      .selectAll()
      .where("user_id", "=", someone.id)
      .executeTakeFirstOrThrow();
    expect(sent.sent_at).not.toBeNull();
  });

  it("carries a message's words, and nothing once the sender is blocked", async () => {
    const [reader, writer] = [await person("owner"), await person("sitter", { name: "Rosa" })];
    await matchOf(reader.id, writer.id);
    await wantsMessages(reader.id);
    const conversationId = await ensureConversation(reader.id, writer.id);
    const phone = await device(reader.id);
    const empty = { image: "", video: "" };
    expect(await sendMessage(writer.id, conversationId, "Is Max ok with cats?", null, empty)).toMatchObject({
      status: "sent",
    });
    await deliverPendingPushes();
    const payload = readPush(pushesTo(phone.path)[0]!.body, phone.keys);
    expect(payload).toMatchObject({ title: "New message from Rosa", body: "Is Max ok with cats?" });
    expect(payload.link).toBe(`/messages?userId=${writer.id}`);

    // Written, then the sender is blocked before delivery: withheld.
    await sendMessage(writer.id, conversationId, "Answer me", null, empty);
    await blockPerson(reader.id, writer.id);
    await deliverPendingPushes();
    expect(pushesTo(phone.path)).toHaveLength(1);
  });

  it.runIf(databaseEngine === "postgres")(
    "on PostgreSQL, waits while another instance delivers, then sends each push once",
    async () => {
      // Another instance: its own pool on the same database, holding the delivery lock as its batch would.
      const other = new Kysely<Database>({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 }) }),
      });
      try {
        const someone = await person("owner");
        await wantsMessages(someone.id);
        const phone = await device(someone.id);
        await notify({ userId: someone.id, type: "match", data: { name: "Ana" }, link: "/messages" });
        let release = () => {};
        const held = new Promise<void>((resolve) => (release = resolve));
        let locked = () => {};
        const otherHoldsIt = new Promise<void>((resolve) => (locked = resolve));
        const otherRun = withAdvisoryLock(other, "push-delivery", async () => {
          locked();
          await held;
        });
        await otherHoldsIt;
        // This instance's run waits for the other's to end, and a second call joins it.
        const runs = Promise.all([deliverPendingPushes(), deliverPendingPushes()]);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(pushesTo(phone.path)).toHaveLength(0);
        release();
        expect(await otherRun).toEqual({ ran: true, value: undefined });
        await runs;
        await deliverPendingPushes();
        expect(pushesTo(phone.path)).toHaveLength(1);
      } finally {
        await other.destroy();
      }
    },
  );

  it("makes the VAPID keys once and keeps them in the database", async () => {
    const keys = await vapidKeys();
    expect(keys?.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    const row = await db.selectFrom("push_keys").selectAll().executeTakeFirstOrThrow();
    expect(row.public_key).toBe(keys!.publicKey);
  });
});

describe("subscriptions", () => {
  it("keeps at most 10 per person, dropping the oldest", async () => {
    const someone = await person("owner");
    const first = await device(someone.id);
    advanceClock(1000);
    const second = await device(someone.id);
    for (let i = 0; i < MAX_SUBSCRIPTIONS_PER_PERSON; i += 1) {
      advanceClock(1000);
      await device(someone.id);
    }
    const endpoints = (
      await db.selectFrom("push_subscriptions").select("endpoint").where("user_id", "=", someone.id).execute()
    ).map((row) => row.endpoint);
    expect(endpoints).toHaveLength(MAX_SUBSCRIPTIONS_PER_PERSON);
    expect(endpoints).not.toContain(first.endpoint);
    expect(endpoints).not.toContain(second.endpoint);
  });

  it("refuses endpoints that are not a push service, and keys of the wrong size; nothing is stored", async () => {
    const someone = await person("owner");
    const keys = browserKeys();
    const hostile = [
      "http://fcm.googleapis.com/fcm/send/abc",
      "https://127.0.0.1/push",
      "https://10.0.0.7/push",
      "https://[::1]/push",
      "https://169.254.169.254/latest/meta-data",
      "https://localhost/push",
      "https://evil.example/push",
      "https://fcm.googleapis.com.evil.example/push",
      "https://user:pw@fcm.googleapis.com/fcm/send/abc",
      "https://fcm.googleapis.com:8443/fcm/send/abc",
      `https://fcm.googleapis.com/${"a".repeat(3000)}`,
      "not a url",
      `${service.origin.replace("127.0.0.1", "localhost")}/push`,
    ];
    for (const endpoint of hostile) {
      expect(await saveSubscription(someone.id, { endpoint, p256dh: keys.p256dh, auth: keys.auth }, null)).toEqual({
        ok: false,
        error: "settings:push.refusals.endpoint",
      });
    }
    const endpoint = "https://fcm.googleapis.com/fcm/send/abc:def";
    const badKeys = [
      { p256dh: keys.p256dh.slice(0, 40), auth: keys.auth },
      { p256dh: Buffer.alloc(65, 5).toString("base64url"), auth: keys.auth },
      { p256dh: keys.p256dh, auth: Buffer.alloc(8).toString("base64url") },
      { p256dh: keys.p256dh, auth: "not*base64" },
    ];
    for (const bad of badKeys) {
      expect(await saveSubscription(someone.id, { endpoint, ...bad }, null)).toEqual({
        ok: false,
        error: "settings:push.refusals.keys",
      });
    }
    expect(await subscriptionCount(someone.id)).toBe(0);
    // The real push services are accepted.
    for (const good of [
      endpoint,
      "https://updates.push.services.mozilla.com/wpush/v2/x",
      "https://web.push.apple.com/Q",
    ])
      expect(
        await saveSubscription(someone.id, { endpoint: good, p256dh: keys.p256dh, auth: keys.auth }, null),
      ).toMatchObject({ ok: true });
  });

  it("never lets one person change, test or take another person's device", async () => {
    const [alice, mallory] = [await person("owner"), await person("owner")];
    const phone = await device(alice.id);
    expect(await removeSubscription(mallory.id, phone.endpoint)).toBe(false);
    const form = (fields: Record<string, string>) => {
      const data = new FormData();
      for (const [name, value] of Object.entries(fields)) data.set(name, value);
      return data;
    };
    expect(await handlePushAction(mallory.id, form({ intent: "test", endpoint: phone.endpoint }), null)).toMatchObject({
      status: 404,
    });
    // Posting the endpoint with other keys is refused; the device stays Alice's.
    const other = browserKeys();
    expect(
      await handlePushAction(
        mallory.id,
        form({ intent: "subscribe", endpoint: phone.endpoint, p256dh: other.p256dh, auth: other.auth }),
        null,
      ),
    ).toMatchObject({ status: 400, body: { ok: false, message: "settings:push.refusals.endpoint" } });
    expect(await subscriptionCount(alice.id)).toBe(1);
    expect(await subscriptionCount(mallory.id)).toBe(0);
    await handlePushAction(mallory.id, form({ intent: "unsubscribe", endpoint: phone.endpoint }), null);
    expect(await subscriptionCount(alice.id)).toBe(1);

    // Alice's own test push reaches her phone.
    expect(await handlePushAction(alice.id, form({ intent: "test", endpoint: phone.endpoint }), null)).toMatchObject({
      status: 200,
    });
    await deliverPendingPushes();
    expect(readPush(pushesTo(phone.path)[0]!.body, phone.keys).link).toBe("/settings");
    expect(
      await handlePushAction(alice.id, form({ intent: "unsubscribe", endpoint: phone.endpoint }), null),
    ).toMatchObject({
      status: 200,
    });
    expect(await subscriptionCount(alice.id)).toBe(0);
    expect(await handlePushAction(alice.id, form({ intent: "nonsense" }), null)).toMatchObject({ status: 400 });
  });

  it("lists devices for the data export without their secrets", async () => {
    const someone = await person("owner");
    const phone = await device(someone.id);
    const exported = await exportSubscriptions(someone.id);
    expect(exported).toEqual([
      { device: "Chrome · Android", pushService: new URL(phone.endpoint).host, since: expect.any(String) },
    ]);
    expect(JSON.stringify(exported)).not.toContain(phone.keys.auth);
  });

  it("erases the devices and their pushes with the account", async () => {
    const someone = await person("owner", { password: PASSWORD });
    await wantsMessages(someone.id);
    await device(someone.id);
    await notify({ userId: someone.id, type: "match", data: { name: "Ana" }, link: "/messages" });
    expect((await deleteAccount(someone.id, PASSWORD)).status).toBe("deleted");
    expect(await subscriptionCount(someone.id)).toBe(0);
    expect(await db.selectFrom("push_outbox").select("id").where("user_id", "=", someone.id).execute()).toEqual([]);
  });

  it("accepts a local push service only in tests, and VAPID keys only as a pair", () => {
    const demo = { NODE_ENV: "production" as const, DEMO_MODE: "true", DATA_DIR: process.env.DATA_DIR };
    expect(() => parseEnv({ ...demo, PUSH_TEST_SERVICE_ORIGIN: "http://127.0.0.1:9999" })).toThrow(/TEST_MODE/);
    expect(parseEnv({ ...demo, TEST_MODE: "true", PUSH_TEST_SERVICE_ORIGIN: "http://127.0.0.1:9999" })).toMatchObject({
      PUSH_TEST_SERVICE_ORIGIN: "http://127.0.0.1:9999",
    });
    expect(() => parseEnv({ ...demo, VAPID_PUBLIC_KEY: "B".repeat(87) })).toThrow(/VAPID_PRIVATE_KEY/);
  });
});
