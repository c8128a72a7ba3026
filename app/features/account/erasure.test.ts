import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type AddressInfo, type Socket } from "node:net";
import path from "node:path";
import sharp from "sharp";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { speakSmtp, type ReceivedMail } from "~/testing/smtp";

/** A mail server that takes every email, so the deletion's confirmation is really delivered (and then wiped). */
const received: ReceivedMail[] = [];
const sockets = new Set<Socket>();
const server = createServer((socket) => {
  sockets.add(socket);
  socket.on("close", () => sockets.delete(socket));
  socket.on("error", () => undefined);
  speakSmtp(socket, received);
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
process.env.SMTP_URL = `smtp://127.0.0.1:${(server.address() as AddressInfo).port}`;

const { db, databaseEngine, databaseFile } = await import("~/platform/db.server");
const { env } = await import("~/platform/env.server");
const { deliverPendingEmails } = await import("~/platform/email.server");
const { clockTo, resetClock } = await import("~/testing/clock");
const { signUp } = await import("~/features/auth/index.server");
const { addPhotos } = await import("~/features/media/index.server");
const { ensureConversation, sendMessage, storeAttachment } = await import("~/features/messages/index.server");
const { leaveReview, payForBooking, requestBooking, runDueBookingWork, transition } =
  await import("~/features/bookings/index.server");
const { card, premiumWithCard, requestInput, sitterWithSlot, bookingRow, at } = await import("~/testing/bookings");
const { PASSWORD, person: aPerson, petOf, signupInput } = await import("~/testing/people");
const { saveCarePlan } = await import("~/features/care/index.server");
const { applyVisitEvent, storeVisitMedia, walkFromRoute } = await import("~/features/visits/index.server");
const { addPost, reportProblem } = await import("~/features/disputes/index.server");
const { blockPerson, fileReport } = await import("~/features/safety/index.server");
const { deleteAccount } = await import("./erasure.server");
const { DELETED_MEMBER } = await import("./sections.server");

afterAll(async () => {
  resetClock();
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
});

const picture = (red: number) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: { r: red, g: 90, b: 140 } } })
    .png()
    .toBuffer();
const noisy = async () => {
  const pixels = Buffer.alloc(80 * 60 * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7919 + ((i / 3) | 0) * 104729) % 251;
  return sharp(pixels, { raw: { width: 80, height: 60, channels: 3 } })
    .png()
    .toBuffer();
};

const mediaDir = () => path.join(env.DATA_DIR, "media");
const mediaFiles = () => readdirSync(mediaDir()).map((name) => readFileSync(path.join(mediaDir(), name)));

/**
 * Every byte SQLite keeps: the database file and, if any, its write-ahead log. On PostgreSQL, whose
 * files belong to the server, every row of every table as text.
 */
async function databaseBytes(): Promise<Buffer> {
  if (databaseEngine === "postgres") {
    const tables = await sql<{
      name: string;
    }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(
      db,
    );
    const parts: string[] = [];
    for (const { name } of tables.rows) {
      const rows = await sql<{ row: string }>`select t::text as row from ${sql.table(name)} t`.execute(db);
      for (const row of rows.rows) parts.push(row.row);
    }
    return Buffer.from(parts.join("\n"), "utf8");
  }
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
const contains = (bytes: Buffer, text: string) =>
  bytes.includes(Buffer.from(text, "utf8")) || bytes.includes(Buffer.from(text, "utf16le"));

async function aPersonWithHistory() {
  const input = signupInput({
    name: "Zephyrine Quillfeather",
    phone: "+34 611 987 654",
    email: `zephyrine.${randomUUID().slice(0, 8)}@example.com`,
  });
  const created = await signUp(input, "en");
  if (created.status !== "created") throw new Error(created.status);
  await db
    .updateTable("users")
    .set({ email_verified_at: new Date().toISOString(), bio: "Retired vet who adores greyhounds" })
    .where("id", "=", created.user.id)
    .execute();
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
  await sendMessage(user.id, conversationId, `Hi, it's Zephyrine Quillfeather, call me on ${input.phone}`, null, {
    image: "📷",
    video: "🎥",
  });
  await sendMessage(user.id, conversationId, "", attachment, { image: "📷", video: "🎥" });
  await sendMessage(sitter.id, conversationId, "See you tomorrow!", null, { image: "📷", video: "🎥" });

  // A care plan for the pet, and the sitter's visit: a photo, a walk from the door and a note naming her.
  const plan = {
    feeding: "08:00 – 80 g dry food",
    medication: "",
    walks: "Twice a day",
    houseNotes: "Keys with Zephyrine Quillfeather's neighbour",
    vetName: "Dr. Vega",
  };
  expect(
    await saveCarePlan(user.id, petId, {
      ...plan,
      vetPhone: "+34 600 111 222",
      vetAddress: "Calle Mayor 1",
      emergencyName: input.name,
      emergencyPhone: input.phone,
    }),
  ).toBe(true);
  clockTo(at(sitter, sitter.day, "10:05"), 0);
  expect(await applyVisitEvent(first.booking.id, sitter.id, { type: "check-in" })).toMatchObject({ ok: true });
  expect(await storeVisitMedia(first.booking.id, sitter.id, await picture(120), "image/png")).toEqual({
    ok: true,
    changed: true,
  });
  const walk = walkFromRoute(
    JSON.stringify([
      [40.4165, -3.7038, 0],
      [40.4169, -3.7038, 60],
      [40.4173, -3.7038, 120],
    ]),
  )!;
  expect(await applyVisitEvent(first.booking.id, sitter.id, { type: "walk", walk })).toMatchObject({ ok: true });
  expect(
    await applyVisitEvent(first.booking.id, sitter.id, {
      type: "details",
      quickNotes: [],
      note: "Zephyrine Quillfeather, the back door sticks",
    }),
  ).toMatchObject({ ok: true });
  expect(await applyVisitEvent(first.booking.id, sitter.id, { type: "check-out" })).toMatchObject({ ok: true });

  clockTo(at(sitter, sitter.day, "12:00"), 60_000);
  await runDueBookingWork();
  expect((await bookingRow(first.booking.id)).status).toBe("completed");
  // A problem reported on it, with a photo; the sitter answers naming her; an operator follows it.
  await aPerson("owner", { columns: { is_admin: 1 } });
  const problem = await reportProblem(user.id, first.booking.id, {
    reason: "shortVisit",
    details: `Zephyrine Quillfeather here, back at 10:30, call ${input.phone}`,
    images: [await picture(170)],
  });
  expect(problem).toMatchObject({ ok: true });
  expect(
    await addPost(sitter.id, first.booking.id, {
      body: "Zephyrine Quillfeather, I stayed the whole hour.",
      images: [],
    }),
  ).toMatchObject({ ok: true });
  // She reported and blocked someone; someone reported her, naming her.
  const stranger = await aPerson("sitter");
  expect(
    await fileReport(user.id, {
      subjectType: "profile",
      subjectId: stranger.id,
      reason: "scam",
      details: `Asked me for money; I'm Zephyrine Quillfeather (${input.email})`,
    }),
  ).toBe("reported");
  expect(
    await fileReport(stranger.id, {
      subjectType: "profile",
      subjectId: user.id,
      reason: "other",
      details: "Zephyrine Quillfeather was rude",
    }),
  ).toBe("reported");
  // Blocked after the report: a blocked person can no longer report what the block hides.
  expect(await blockPerson(user.id, stranger.id)).toBe("blocked");
  expect(await leaveReview(sitter.id, first.booking.id, 5, "Biscuit was a delight")).toBe("saved");
  expect(await leaveReview(user.id, first.booking.id, 4, "Kind and on time")).toBe("saved");
  resetClock();
  const premium = await premiumWithCard(user);

  const photoKeys = await db
    .selectFrom("photos")
    .select(["card_key", "full_key"])
    .where("user_id", "=", user.id)
    .execute();
  const visitMedia = await db
    .selectFrom("visit_media")
    .select(["key", "preview_key"])
    .where("booking_id", "=", first.booking.id)
    .execute();
  const disputePhotos = await db
    .selectFrom("dispute_photos as ph")
    .innerJoin("dispute_posts as p", "p.id", "ph.post_id")
    .select(["ph.card_key", "ph.full_key"])
    .where("p.author_id", "=", user.id)
    .execute();
  const stored = [
    ...photoKeys.flatMap((row) => [row.card_key, row.full_key]),
    attachment.key,
    ...(attachment.previewKey ? [attachment.previewKey] : []),
    ...visitMedia.flatMap((row) => [row.key, ...(row.preview_key ? [row.preview_key] : [])]),
    ...disputePhotos.flatMap((row) => [row.card_key, row.full_key]),
  ];
  expect(visitMedia).toHaveLength(1);
  expect(disputePhotos).toHaveLength(1);
  const photoBytes = stored.map((key) => readFileSync(path.join(mediaDir(), key)));
  return {
    user,
    input,
    sitter,
    later,
    stranger,
    petId,
    conversationId,
    completedId: first.booking.id,
    openId: open.booking.id,
    premium,
    stored,
    photoBytes,
  };
}

describe("deleting an account", () => {
  it("leaves none of the person's name, email, phone or photo bytes in the database file or the media folder", async () => {
    const world = await aPersonWithHistory();
    await deliverPendingEmails();
    // The test sees what it searches for before the deletion, so the search itself can fail.
    expect(contains(await databaseBytes(), world.input.name)).toBe(true);
    expect(contains(await databaseBytes(), world.input.email)).toBe(true);
    expect(mediaFiles().some((file) => world.photoBytes.some((photo) => file.equals(photo)))).toBe(true);

    expect(await deleteAccount(world.user.id, PASSWORD)).toEqual({ status: "deleted" });
    await deliverPendingEmails();

    const bytes = await databaseBytes();
    for (const text of [
      world.input.name,
      "Zephyrine",
      "Quillfeather",
      world.input.email,
      world.input.phone,
      "Retired vet who adores greyhounds",
    ]) {
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

  it('closes open bookings, ends premium, keeps accounting records as "Deleted member" and frees the address', async () => {
    const world = await aPersonWithHistory();
    expect(await deleteAccount(world.user.id, PASSWORD)).toEqual({ status: "deleted" });

    const row = await db.selectFrom("users").selectAll().where("id", "=", world.user.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      name: DELETED_MEMBER,
      phone: "",
      bio: "",
      city: "",
      latitude: null,
      longitude: null,
      email_verified_at: null,
      hourly_rate_cents: null,
    });
    expect(row.deleted_at).not.toBeNull();
    expect(await db.selectFrom("sessions").select("id_hash").where("user_id", "=", world.user.id).execute()).toEqual(
      [],
    );

    // The open booking is cancelled with its hold released; the completed one is kept, without the owner's notes.
    expect(await bookingRow(world.openId)).toMatchObject({ status: "cancelled", payment_status: "refunded" });
    expect(await bookingRow(world.completedId)).toMatchObject({
      status: "completed",
      owner_id: world.user.id,
      notes: "",
      location: "",
    });
    const subscription = await db
      .selectFrom("subscriptions")
      .selectAll()
      .where("id", "=", world.premium.subscriptionId)
      .executeTakeFirstOrThrow();
    expect(subscription.cancel_at_period_end).toBe(1);
    expect(
      await db.selectFrom("subscription_payments").select("id").where("user_id", "=", world.user.id).execute(),
    ).toHaveLength(1);
    expect(await db.selectFrom("payment_methods").select("id").where("user_id", "=", world.user.id).execute()).toEqual(
      [],
    );

    // What others received stays, under the erased name.
    const messages = await db
      .selectFrom("messages")
      .innerJoin("users", "users.id", "messages.sender_id")
      .select(["users.name", "messages.media_key", "messages.body"])
      .where("conversation_id", "=", world.conversationId)
      .orderBy("messages.id")
      .execute();
    // Her two messages, the sitter's answer and the sitter's visit report card.
    expect(messages.map((message) => message.name)).toEqual([
      DELETED_MEMBER,
      DELETED_MEMBER,
      world.sitter.name,
      world.sitter.name,
    ]);
    expect(messages.every((message) => message.media_key === null)).toBe(true);
    const review = await db
      .selectFrom("reviews")
      .innerJoin("users", "users.id", "reviews.reviewer_id")
      .select(["users.name", "reviews.comment"])
      .where("reviews.reviewed_id", "=", world.sitter.id)
      .executeTakeFirstOrThrow();
    expect(review).toEqual({ name: DELETED_MEMBER, comment: "Kind and on time" });
    expect(await db.selectFrom("pets").select("id").where("owner_id", "=", world.user.id).execute()).toEqual([]);
    expect(await db.selectFrom("photos").select("id").where("user_id", "=", world.user.id).execute()).toEqual([]);

    // The sitter was told the booking ended; the other side's news no longer names the person.
    const sitterNews = await db
      .selectFrom("notifications")
      .select("data")
      .where("user_id", "=", world.later.id)
      .execute();
    expect(sitterNews.length).toBeGreaterThan(0);
    expect(sitterNews.every((news) => !news.data.includes("Zephyrine"))).toBe(true);

    // The care plan goes with the pet; the visit stays for the booking's record, without its files, route or her name.
    expect(await db.selectFrom("care_plans").select("pet_id").where("pet_id", "=", world.petId).execute()).toEqual([]);
    expect(
      await db.selectFrom("visit_media").select("key").where("booking_id", "=", world.completedId).execute(),
    ).toEqual([]);
    expect(
      await db
        .selectFrom("visits")
        .select(["status", "walk_route", "walk_distance_m", "note"])
        .where("booking_id", "=", world.completedId)
        .executeTakeFirstOrThrow(),
    ).toMatchObject({
      status: "checked-out",
      walk_route: null,
      walk_distance_m: expect.any(Number),
      note: `${DELETED_MEMBER}, the back door sticks`,
    });
    // The dispute stays for accounting, her words without her details, her photos gone.
    const dispute = await db
      .selectFrom("disputes")
      .select(["id", "status", "reason"])
      .where("booking_id", "=", world.completedId)
      .executeTakeFirstOrThrow();
    expect(dispute).toMatchObject({ status: "open", reason: "shortVisit" });
    const posts = await db
      .selectFrom("dispute_posts")
      .select(["author_id", "body"])
      .where("dispute_id", "=", dispute.id)
      .orderBy("created_at")
      .execute();
    expect(posts).toEqual([
      { author_id: world.user.id, body: `${DELETED_MEMBER} here, back at 10:30, call ` },
      { author_id: world.sitter.id, body: `${DELETED_MEMBER}, I stayed the whole hour.` },
    ]);
    expect(
      await db
        .selectFrom("dispute_photos")
        .innerJoin("dispute_posts", "dispute_posts.id", "dispute_photos.post_id")
        .select("dispute_photos.id")
        .where("dispute_posts.author_id", "=", world.user.id)
        .execute(),
    ).toEqual([]);
    // Her reports and blocks go; the report about her stays for the operators, without her name.
    expect(await db.selectFrom("reports").select("id").where("reporter_id", "=", world.user.id).execute()).toEqual([]);
    expect(
      await db.selectFrom("blocks").select("blocked_id").where("blocker_id", "=", world.user.id).execute(),
    ).toEqual([]);
    expect(
      await db.selectFrom("reports").select("details").where("reported_user_id", "=", world.user.id).execute(),
    ).toEqual([{ details: `${DELETED_MEMBER} was rude` }]);
    // The booking's history is kept whole.
    expect(
      (await db.selectFrom("booking_history").select("event").where("booking_id", "=", world.completedId).execute())
        .length,
    ).toBeGreaterThan(3);

    // The address is free again.
    const again = await signUp(signupInput({ email: world.input.email }), "en");
    expect(again.status).toBe("created");
  });

  it("refuses a wrong password and changes nothing; a second deletion finds nothing to delete", async () => {
    const world = await aPersonWithHistory();
    const before = await db.selectFrom("users").selectAll().where("id", "=", world.user.id).executeTakeFirstOrThrow();
    expect(await deleteAccount(world.user.id, "not my password")).toEqual({ status: "wrong-password" });
    expect(await db.selectFrom("users").selectAll().where("id", "=", world.user.id).executeTakeFirstOrThrow()).toEqual(
      before,
    );
    expect((await bookingRow(world.openId)).status).toBe("requested");
    expect(readdirSync(mediaDir())).toEqual(expect.arrayContaining(world.stored));

    const [first, second] = await Promise.all([
      deleteAccount(world.user.id, PASSWORD),
      deleteAccount(world.user.id, PASSWORD),
    ]);
    expect([first, second]).toEqual([{ status: "deleted" }, { status: "gone" }]);
    expect(await deleteAccount(world.user.id, PASSWORD)).toEqual({ status: "gone" });
  });
});
