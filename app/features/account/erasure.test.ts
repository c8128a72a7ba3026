import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type AddressInfo, type Socket } from "node:net";
import path from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";

/** A mail server that takes every email, so the deletion's confirmation is really delivered (and then wiped). */
const received: { to: string; data: string }[] = [];
const sockets = new Set<Socket>();
const server = createServer((socket) => {
  sockets.add(socket);
  socket.on("close", () => sockets.delete(socket));
  socket.on("error", () => undefined);
  let buffer = "";
  let inData = false;
  let to = "";
  socket.write("220 mail.test ESMTP\r\n");
  socket.on("data", (chunk) => {
    buffer += chunk.toString("utf8");
    for (;;) {
      if (inData) {
        const end = buffer.indexOf("\r\n.\r\n");
        if (end === -1) return;
        received.push({ to, data: buffer.slice(0, end) });
        buffer = buffer.slice(end + 5);
        inData = false;
        socket.write("250 queued\r\n");
        continue;
      }
      const lineEnd = buffer.indexOf("\r\n");
      if (lineEnd === -1) return;
      const line = buffer.slice(0, lineEnd);
      buffer = buffer.slice(lineEnd + 2);
      const command = line.slice(0, 4).toUpperCase();
      if (command === "EHLO") socket.write("250-mail.test\r\n250 8BITMIME\r\n");
      else if (command === "RCPT") {
        to = /<([^>]*)>/.exec(line)?.[1] ?? "";
        socket.write("250 OK\r\n");
      } else if (command === "DATA") {
        inData = true;
        socket.write("354 go ahead\r\n");
      } else if (command === "QUIT") socket.end("221 bye\r\n");
      else socket.write("250 OK\r\n");
    }
  });
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
process.env.SMTP_URL = `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`;

const { db, databaseFile } = await import("~/platform/db.server");
const { env } = await import("~/platform/env.server");
const { deliverPendingEmails } = await import("~/platform/email.server");
const { clockTo, resetClock } = await import("~/testing/clock");
const { signUp } = await import("~/features/auth/index.server");
const { addPhotos } = await import("~/features/media/index.server");
const { ensureConversation, sendMessage, storeAttachment } = await import("~/features/messages/index.server");
const { leaveReview, payForBooking, requestBooking, runDueBookingWork, transition } = await import("~/features/bookings/index.server");
const { card, premiumWithCard, requestInput, sitterWithSlot, bookingRow, at } = await import("~/testing/bookings");
const { PASSWORD, petOf, signupInput } = await import("~/testing/people");
const { deleteAccount } = await import("./erasure.server");
const { DELETED_MEMBER } = await import("./sections.server");

afterAll(async () => {
  resetClock();
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
});

const picture = (red: number) => sharp({ create: { width: 64, height: 48, channels: 3, background: { r: red, g: 90, b: 140 } } }).png().toBuffer();
const noisy = async () => {
  const pixels = Buffer.alloc(80 * 60 * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7919 + ((i / 3) | 0) * 104729) % 251;
  return sharp(pixels, { raw: { width: 80, height: 60, channels: 3 } }).png().toBuffer();
};

const mediaDir = () => path.join(env.DATA_DIR, "media");
const mediaFiles = () => readdirSync(mediaDir()).map((name) => readFileSync(path.join(mediaDir(), name)));

/** Every byte SQLite keeps: the database file and, if any, its write-ahead log. */
function databaseBytes(): Buffer {
  const file = databaseFile();
  const parts = [readFileSync(file)];
  try {
    parts.push(readFileSync(`${file}-wal`));
  } catch {
    // No log.
  }
  return Buffer.concat(parts);
}

/** Where a text occurs in bytes, as UTF-8 and as UTF-16 (SQLite may use either). */
const contains = (bytes: Buffer, text: string) => bytes.includes(Buffer.from(text, "utf8")) || bytes.includes(Buffer.from(text, "utf16le"));

async function aPersonWithHistory() {
  const input = signupInput({ name: "Zephyrine Quillfeather", phone: "+34 611 987 654", email: `zephyrine.${randomUUID().slice(0, 8)}@example.com` });
  const created = await signUp(input, "en");
  if (created.status !== "created") throw new Error(created.status);
  await db.updateTable("users").set({ email_verified_at: new Date().toISOString(), bio: "Retired vet who adores greyhounds" }).where("id", "=", created.user.id).execute();
  const user = await db.selectFrom("users").selectAll().where("id", "=", created.user.id).executeTakeFirstOrThrow();
  const petId = await petOf(user.id, { name: "Biscuit" });
  expect((await addPhotos({ userId: user.id, petId: null }, [await noisy()])).status).toBe("added");
  expect((await addPhotos({ userId: user.id, petId }, [await picture(200)])).status).toBe("added");

  // A completed booking tomorrow, reviewed both ways, and an open one the day after.
  const sitter = await sitterWithSlot({ daysAhead: 1 });
  const owner = { ...user, petId };
  const first = await requestBooking(owner, requestInput(sitter.id, petId, sitter.day, "10:00", 2));
  if (first.status !== "created") throw new Error("request refused");
  expect(await payForBooking(owner, first.booking.id, card(), randomUUID())).toEqual({ status: "held" });
  expect((await transition(first.booking.id, { kind: "sitter", userId: sitter.id }, { type: "accept" })).ok).toBe(true);
  const later = await sitterWithSlot({ daysAhead: 3 });
  const open = await requestBooking(owner, requestInput(later.id, petId, later.day, "10:00", 2));
  if (open.status !== "created") throw new Error("request refused");
  expect(await payForBooking(owner, open.booking.id, card(), randomUUID())).toEqual({ status: "held" });

  const conversationId = await ensureConversation(user.id, sitter.id);
  const attachment = await storeAttachment(await picture(30), "image/png");
  if ("refusal" in attachment) throw new Error(attachment.refusal);
  await sendMessage(user.id, conversationId, `Hi, it's Zephyrine Quillfeather, call me on ${input.phone}`, null, { image: "📷", video: "🎥" });
  await sendMessage(user.id, conversationId, "", attachment, { image: "📷", video: "🎥" });
  await sendMessage(sitter.id, conversationId, "See you tomorrow!", null, { image: "📷", video: "🎥" });

  clockTo(at(sitter, sitter.day, "12:00"), 60_000);
  await runDueBookingWork();
  expect((await bookingRow(first.booking.id)).status).toBe("completed");
  expect(await leaveReview(sitter.id, first.booking.id, 5, "Biscuit was a delight")).toBe("saved");
  expect(await leaveReview(user.id, first.booking.id, 4, "Kind and on time")).toBe("saved");
  resetClock();
  const premium = await premiumWithCard(user);

  const photoKeys = await db.selectFrom("photos").select(["card_key", "full_key"]).where("user_id", "=", user.id).execute();
  const stored = [...photoKeys.flatMap((row) => [row.card_key, row.full_key]), attachment.key, ...(attachment.previewKey ? [attachment.previewKey] : [])];
  const photoBytes = stored.map((key) => readFileSync(path.join(mediaDir(), key)));
  return { user, input, sitter, later, petId, conversationId, completedId: first.booking.id, openId: open.booking.id, premium, stored, photoBytes };
}

describe("deleting an account", () => {
  it("leaves none of the person's name, email, phone or photo bytes in the database file or the media folder", async () => {
    const world = await aPersonWithHistory();
    await deliverPendingEmails();
    // The test sees what it searches for before the deletion, so the search itself can fail.
    expect(contains(databaseBytes(), world.input.name)).toBe(true);
    expect(contains(databaseBytes(), world.input.email)).toBe(true);
    expect(mediaFiles().some((file) => world.photoBytes.some((photo) => file.equals(photo)))).toBe(true);

    expect(await deleteAccount(world.user.id, PASSWORD)).toEqual({ status: "deleted" });
    await deliverPendingEmails();

    const bytes = databaseBytes();
    for (const text of [world.input.name, "Zephyrine", "Quillfeather", world.input.email, world.input.phone, "Retired vet who adores greyhounds"]) {
      expect(contains(bytes, text), text).toBe(false);
    }
    for (const photo of world.photoBytes) {
      // A run of the image's own bytes, past the shared WebP header.
      const sample = photo.subarray(64, 128);
      expect(bytes.includes(sample)).toBe(false);
      expect(mediaFiles().some((file) => file.includes(sample))).toBe(false);
    }
    for (const key of world.stored) expect(readdirSync(mediaDir())).not.toContain(key);

    // The confirmation went out, and its text left the outbox once delivered.
    expect(received.some((mail) => mail.to === world.input.email && mail.data.includes("deleted"))).toBe(true);
  });

  it("closes open bookings, ends premium, keeps accounting records as \"Deleted member\" and frees the address", async () => {
    const world = await aPersonWithHistory();
    expect(await deleteAccount(world.user.id, PASSWORD)).toEqual({ status: "deleted" });

    const row = await db.selectFrom("users").selectAll().where("id", "=", world.user.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: DELETED_MEMBER, phone: "", bio: "", city: "", latitude: null, longitude: null, email_verified_at: null, hourly_rate_cents: null });
    expect(row.deleted_at).not.toBeNull();
    expect(await db.selectFrom("sessions").select("id_hash").where("user_id", "=", world.user.id).execute()).toEqual([]);

    // The open booking is cancelled with its hold released; the completed one is kept, without the owner's notes.
    expect(await bookingRow(world.openId)).toMatchObject({ status: "cancelled", payment_status: "refunded" });
    expect(await bookingRow(world.completedId)).toMatchObject({ status: "completed", owner_id: world.user.id, notes: "", location: "" });
    const subscription = await db.selectFrom("subscriptions").selectAll().where("id", "=", world.premium.subscriptionId).executeTakeFirstOrThrow();
    expect(subscription.cancel_at_period_end).toBe(1);
    expect(await db.selectFrom("subscription_payments").select("id").where("user_id", "=", world.user.id).execute()).toHaveLength(1);
    expect(await db.selectFrom("payment_methods").select("id").where("user_id", "=", world.user.id).execute()).toEqual([]);

    // What others received stays, under the erased name.
    const messages = await db
      .selectFrom("messages")
      .innerJoin("users", "users.id", "messages.sender_id")
      .select(["users.name", "messages.media_key", "messages.body"])
      .where("conversation_id", "=", world.conversationId)
      .orderBy("messages.id")
      .execute();
    expect(messages.map((message) => message.name)).toEqual([DELETED_MEMBER, DELETED_MEMBER, world.sitter.name]);
    expect(messages.every((message) => message.media_key === null)).toBe(true);
    const review = await db.selectFrom("reviews").innerJoin("users", "users.id", "reviews.reviewer_id").select(["users.name", "reviews.comment"]).where("reviews.reviewed_id", "=", world.sitter.id).executeTakeFirstOrThrow();
    expect(review).toEqual({ name: DELETED_MEMBER, comment: "Kind and on time" });
    expect(await db.selectFrom("pets").select("id").where("owner_id", "=", world.user.id).execute()).toEqual([]);
    expect(await db.selectFrom("photos").select("id").where("user_id", "=", world.user.id).execute()).toEqual([]);

    // The sitter was told the booking ended; the other side's news no longer names the person.
    const sitterNews = await db.selectFrom("notifications").select("data").where("user_id", "=", world.later.id).execute();
    expect(sitterNews.length).toBeGreaterThan(0);
    expect(sitterNews.every((news) => !news.data.includes("Zephyrine"))).toBe(true);

    // The address is free again.
    const again = await signUp(signupInput({ email: world.input.email }), "en");
    expect(again.status).toBe("created");
  });

  it("refuses a wrong password and changes nothing; a second deletion finds nothing to delete", async () => {
    const world = await aPersonWithHistory();
    const before = await db.selectFrom("users").selectAll().where("id", "=", world.user.id).executeTakeFirstOrThrow();
    expect(await deleteAccount(world.user.id, "not my password")).toEqual({ status: "wrong-password" });
    expect(await db.selectFrom("users").selectAll().where("id", "=", world.user.id).executeTakeFirstOrThrow()).toEqual(before);
    expect((await bookingRow(world.openId)).status).toBe("requested");
    expect(readdirSync(mediaDir())).toEqual(expect.arrayContaining(world.stored));

    const [first, second] = await Promise.all([deleteAccount(world.user.id, PASSWORD), deleteAccount(world.user.id, PASSWORD)]);
    expect([first, second]).toEqual([{ status: "deleted" }, { status: "gone" }]);
    expect(await deleteAccount(world.user.id, PASSWORD)).toEqual({ status: "gone" });
  });
});
