import { randomUUID } from "node:crypto";
import { PassThrough, type Readable } from "node:stream";
import path from "node:path";
import { readFileSync } from "node:fs";
import sharp from "sharp";
import yauzl from "yauzl";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { composeEmail, enqueueEmail, unsubscribeHeaders } from "~/platform/email.server";
import { readUnsubscribeToken, unsubscribeToken } from "~/platform/unsubscribe.server";
import { advanceClock, clockTo, HOUR, resetClockAfterEach, DAY } from "~/testing/clock";
import { emailsTo, PASSWORD, person, petOf } from "~/testing/people";
import { at, card, ownerWithPet, premiumWithCard, requested, sitterWithSlot } from "~/testing/bookings";
import { leaveReview, payForBooking, runDueBookingWork, transition } from "~/features/bookings/index.server";
import { saveCarePlan } from "~/features/care/index.server";
import { addPost, reportProblem } from "~/features/disputes/index.server";
import { replyToReview } from "~/features/reviews/index.server";
import { blockPerson, fileReport } from "~/features/safety/index.server";
import { applyVisitEvent, storeVisitMedia, walkFromRoute } from "~/features/visits/index.server";
import { signUp } from "~/features/auth/index.server";
import { addPhotos } from "~/features/media/index.server";
import { timeZoneOfCity } from "~/features/geo/index.server";
import { checkEmailChangeToken, confirmEmailChange, requestEmailChange } from "./email-change.server";
import { exportArchive, requestExport } from "./export.server";
import { emailPreferencesOf, saveEmailPreferences, saveTimeZone, unsubscribe } from "./preferences.server";
import { signupInput } from "~/testing/people";

resetClockAfterEach();

async function unzip(stream: Readable): Promise<Map<string, Buffer>> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(Buffer.concat(chunks), { lazyEntries: true }, (error, file) =>
      error ? reject(error) : resolve(file),
    ),
  );
  const entries = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on("entry", (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, read) => {
        if (error) return reject(error);
        const parts: Buffer[] = [];
        const sink = new PassThrough();
        sink.on("data", (part: Buffer) => parts.push(part));
        sink.on("end", () => {
          entries.set(entry.fileName, Buffer.concat(parts));
          zip.readEntry();
        });
        read.pipe(sink);
      });
    });
    zip.on("end", resolve);
    zip.on("error", reject);
    zip.readEntry();
  });
  return entries;
}

const picture = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 10, g: 200, b: 30 } } })
    .png()
    .toBuffer();

describe("data export", () => {
  it("streams a ZIP with a JSON of everything held and the original photos, without secrets", async () => {
    const who = await person("both", { password: PASSWORD, name: "Olek Export" });
    const petId = await petOf(who.id, { name: "Fluff" });
    await addPhotos({ userId: who.id, petId: null }, [await picture()]);
    await addPhotos({ userId: who.id, petId }, [await picture()]);
    await premiumWithCard(who);
    const request = await requestExport(who.id);
    expect(request.status).toBe("ready");

    const archive = await exportArchive(who.id, request.export.id);
    expect(archive).not.toBeNull();
    const files = await unzip(archive!);
    const data = JSON.parse(files.get("data.json")!.toString("utf8")) as Record<string, unknown>;
    expect(Object.keys(data)).toEqual(
      expect.arrayContaining([
        "profile",
        "photos",
        "pets",
        "availability",
        "swipes",
        "matches",
        "messages",
        "bookings",
        "payments",
        "reviews",
        "notifications",
        "security",
      ]),
    );
    expect(data.profile).toMatchObject({ id: who.id, name: "Olek Export", email: who.email });
    expect(data.pets).toEqual([expect.objectContaining({ id: petId, name: "Fluff" })]);
    const payments = data.payments as {
      cards: Record<string, unknown>[];
      subscriptions: unknown[];
      subscriptionPayments: unknown[];
    };
    expect(payments.cards).toEqual([expect.objectContaining({ last4: "4242" })]);
    expect(payments.subscriptions).toHaveLength(1);
    expect(payments.subscriptionPayments).toHaveLength(1);

    // Never a password hash, a token, or a provider's reference to the card.
    const json = files.get("data.json")!.toString("utf8");
    const secrets = [
      who.password_hash,
      ...(await db.selectFrom("payment_methods").select("provider_ref").where("user_id", "=", who.id).execute()).map(
        (row) => row.provider_ref,
      ),
    ];
    for (const secret of secrets) expect(json).not.toContain(secret);
    expect(json).not.toMatch(/password_hash|id_hash|provider_ref|card_ref|hold_ref/);

    // The photos are the stored files, byte for byte.
    const photos = await db
      .selectFrom("photos")
      .select(["id", "full_key", "pet_id"])
      .where("user_id", "=", who.id)
      .execute();
    expect(photos).toHaveLength(2);
    for (const photo of photos) {
      const name = `photos/${photo.pet_id ? `pet-${photo.pet_id}-` : ""}${photo.id}.webp`;
      expect(files.get(name)).toEqual(readFileSync(path.join(env.DATA_DIR, "media", photo.full_key)));
    }
  });

  it("includes care plans, visit reports with their files, disputes with only the person's own words and photos, the reports and blocks they made, replies and terms", async () => {
    const sitter = await sitterWithSlot();
    const owner = await ownerWithPet();
    await db
      .updateTable("users")
      .set({ terms_accepted_at: "2026-01-02T03:04:05.000Z" })
      .where("id", "=", owner.id)
      .execute();
    const booking = await requested(owner, sitter);
    expect(await payForBooking(owner, booking.id, card(), randomUUID())).toEqual({ status: "held" });
    expect((await transition(booking.id, { kind: "sitter", userId: sitter.id }, { type: "accept" })).ok).toBe(true);
    const empty = {
      walks: "",
      houseNotes: "",
      vetName: "",
      vetPhone: "",
      vetAddress: "",
      emergencyName: "",
      emergencyPhone: "",
    };
    expect(
      await saveCarePlan(owner.id, owner.petId, {
        ...empty,
        feeding: "08:00 – 80 g dry food",
        medication: "09:00 – Apoquel",
        houseNotes: "Keys with the concierge",
      }),
    ).toBe(true);
    clockTo(at(sitter, sitter.day, "10:05"), 0);
    expect(await applyVisitEvent(booking.id, sitter.id, { type: "check-in" })).toMatchObject({ ok: true });
    expect(await storeVisitMedia(booking.id, sitter.id, await picture(), "image/png")).toEqual({
      ok: true,
      changed: true,
    });
    const walk = walkFromRoute(
      JSON.stringify([
        [40.4165, -3.7038, 0],
        [40.4169, -3.7038, 60],
      ]),
    )!;
    expect(await applyVisitEvent(booking.id, sitter.id, { type: "walk", walk })).toMatchObject({ ok: true });
    expect(await applyVisitEvent(booking.id, sitter.id, { type: "check-out" })).toMatchObject({ ok: true });
    clockTo(at(sitter, sitter.day, "12:00"), 60_000);
    await runDueBookingWork();
    expect(
      await reportProblem(owner.id, booking.id, {
        reason: "shortVisit",
        details: "Owner words",
        images: [await picture()],
      }),
    ).toMatchObject({ ok: true });
    expect(await addPost(sitter.id, booking.id, { body: "Sitter words", images: [await picture()] })).toMatchObject({
      ok: true,
    });
    expect(await leaveReview(sitter.id, booking.id, 5, "Lovely dog")).toBe("saved");
    const review = await db
      .selectFrom("reviews")
      .select("id")
      .where("reviewed_id", "=", owner.id)
      .executeTakeFirstOrThrow();
    expect(await replyToReview(owner.id, review.id, "Thank you!")).toBe("saved");
    const stranger = await person("sitter");
    expect(
      await fileReport(owner.id, {
        subjectType: "profile",
        subjectId: stranger.id,
        reason: "scam",
        details: "Asked for money",
      }),
    ).toBe("reported");
    expect(await blockPerson(owner.id, stranger.id)).toBe("blocked");
    const reporter = await person("sitter", { name: "Secret Reporter" });
    expect(
      await fileReport(reporter.id, {
        subjectType: "profile",
        subjectId: owner.id,
        reason: "other",
        details: "Reporter's own words",
      }),
    ).toBe("reported");

    const request = await requestExport(owner.id);
    const files = await unzip((await exportArchive(owner.id, request.export.id))!);
    const json = files.get("data.json")!.toString("utf8");
    const data = JSON.parse(json) as Record<string, unknown>;
    expect(data.profile).toMatchObject({ terms_accepted_at: "2026-01-02T03:04:05.000Z" });
    expect(data.carePlans).toEqual([
      expect.objectContaining({
        pet_id: owner.petId,
        feeding: "08:00 – 80 g dry food",
        house_notes: "Keys with the concierge",
      }),
    ]);
    const visits = data.visitReports as {
      bookingId: string;
      role: string;
      walk: { route: unknown[] } | null;
      media: { key: string }[];
    }[];
    expect(visits).toEqual([expect.objectContaining({ bookingId: booking.id, role: "owner" })]);
    expect(visits[0]!.walk?.route).toHaveLength(2);
    expect(visits[0]!.media).toHaveLength(1);
    const visitFile = files.get(`visits/${booking.id}/${visits[0]!.media[0]!.key}`);
    expect(visitFile).toEqual(readFileSync(path.join(env.DATA_DIR, "media", visits[0]!.media[0]!.key)));
    const disputes = data.disputes as { booking_id: string; posts: { body: string; photos: unknown[] }[] }[];
    expect(disputes).toEqual([expect.objectContaining({ booking_id: booking.id, reason: "shortVisit" })]);
    expect(disputes[0]!.posts.map((post) => [post.body, post.photos.length])).toEqual([["Owner words", 1]]);
    expect(json).not.toContain("Sitter words");
    expect([...files.keys()].filter((name) => name.startsWith("disputes/"))).toHaveLength(1);
    expect(data.reports).toEqual([
      expect.objectContaining({ reported_user_id: stranger.id, reason: "scam", details: "Asked for money" }),
    ]);
    expect(data.blocks).toEqual([expect.objectContaining({ blocked_id: stranger.id })]);
    expect((data.reviews as { received: { reply: string | null }[] }).received).toEqual([
      expect.objectContaining({ comment: "Lovely dog", reply: "Thank you!" }),
    ]);
    // Who reported them is never in their export.
    for (const secret of [reporter.id, "Secret Reporter", "Reporter's own words"]) expect(json).not.toContain(secret);
  });

  it("allows one request a day, and nobody else's archive", async () => {
    const who = await person("owner");
    const other = await person("owner");
    const first = await requestExport(who.id);
    const second = await requestExport(who.id);
    expect(second).toEqual({ status: "too-soon", export: first.export });
    expect(await db.selectFrom("data_exports").select("id").where("user_id", "=", who.id).execute()).toHaveLength(1);
    expect(await exportArchive(other.id, first.export.id)).toBeNull();
    expect(await exportArchive(who.id, randomUUID())).toBeNull();

    advanceClock(DAY + HOUR);
    expect(await exportArchive(who.id, first.export.id)).toBeNull();
    expect((await requestExport(who.id)).status).toBe("ready");
  });
});

describe("changing the email", () => {
  it("sends a 1-hour single-use link to the new address and a notice to the old; the address changes only when it is followed", async () => {
    const who = await person("owner", { password: PASSWORD });
    const newEmail = `new-${randomUUID()}@example.com`;
    expect(await requestEmailChange(who.id, newEmail, PASSWORD)).toEqual({ status: "sent" });
    expect(
      (await db.selectFrom("users").select("email").where("id", "=", who.id).executeTakeFirstOrThrow()).email,
    ).toBe(who.email);
    const [link] = await emailsTo(newEmail);
    expect(await emailsTo(who.email)).toEqual([
      expect.objectContaining({ text_body: expect.stringContaining(newEmail) }),
    ]);
    const token = decodeURIComponent(/token=([^\s"&]+)/.exec(link!.text_body)![1]!);
    expect(link!.text_body).toContain(`${env.APP_URL}/settings/email/confirm?token=`);

    expect(await checkEmailChangeToken(token)).toEqual({ status: "valid", newEmail });
    expect(await confirmEmailChange(token)).toEqual({ status: "changed", userId: who.id, newEmail });
    expect(
      (await db.selectFrom("users").select("email").where("id", "=", who.id).executeTakeFirstOrThrow()).email,
    ).toBe(newEmail);
    expect(await confirmEmailChange(token)).toEqual({ status: "invalid" });
  });

  it("refuses a wrong password, an expired link and a forged one, changing nothing", async () => {
    const who = await person("owner", { password: PASSWORD });
    const newEmail = `late-${randomUUID()}@example.com`;
    expect(await requestEmailChange(who.id, newEmail, "wrong password")).toEqual({ status: "wrong-password" });
    expect(await emailsTo(newEmail)).toEqual([]);
    expect(await requestEmailChange(who.id, who.email, PASSWORD)).toEqual({ status: "same-address" });

    expect(await requestEmailChange(who.id, newEmail, PASSWORD)).toEqual({ status: "sent" });
    const token = decodeURIComponent(/token=([^\s"&]+)/.exec((await emailsTo(newEmail))[0]!.text_body)![1]!);
    advanceClock(HOUR + 1000);
    expect(await confirmEmailChange(token)).toEqual({ status: "expired" });
    expect(await confirmEmailChange(`${token}x`)).toEqual({ status: "invalid" });
    expect(await confirmEmailChange("x".repeat(5000))).toEqual({ status: "invalid" });
    expect(
      (await db.selectFrom("users").select("email").where("id", "=", who.id).executeTakeFirstOrThrow()).email,
    ).toBe(who.email);
  });

  it("answers a taken address exactly like a free one, and sends it no link", async () => {
    const who = await person("owner", { password: PASSWORD });
    const someoneElse = await person("sitter");
    const before = await emailsTo(someoneElse.email);
    expect(await requestEmailChange(who.id, someoneElse.email, PASSWORD)).toEqual({ status: "sent" });
    expect(await emailsTo(someoneElse.email)).toEqual(before);
    expect(await emailsTo(who.email)).toHaveLength(1);
    expect(await db.selectFrom("email_changes").select("token_hash").where("user_id", "=", who.id).execute()).toEqual(
      [],
    );
  });
});

describe("notification preferences and one-click unsubscribe", () => {
  it("emails a kind of news only to people who want it, with List-Unsubscribe headers and a link", async () => {
    const who = await person("owner");
    expect(await emailPreferencesOf(who.id)).toEqual({
      messages: false,
      bookings: true,
      reviews: true,
      marketing: false,
    });
    const news = () =>
      composeEmail({
        to: who.email,
        subject: "S",
        greeting: "G",
        paragraphs: ["P"],
        footer: "F",
        news: { userId: who.id, kind: "bookings", label: "Unsubscribe" },
      });
    expect(await enqueueEmail(news())).toBe(true);
    const row = await db
      .selectFrom("email_outbox")
      .selectAll()
      .where("to_address", "=", who.email)
      .executeTakeFirstOrThrow();
    expect(row.text_body).toContain(`Unsubscribe: ${row.unsubscribe_url}`);
    expect(row.html_body).toContain("Unsubscribe</a>");
    expect(unsubscribeHeaders(row.unsubscribe_url)).toEqual({
      "List-Unsubscribe": `<${row.unsubscribe_url}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    expect(row.unsubscribe_url).toMatch(new RegExp(`^${env.APP_URL}/unsubscribe\\?token=`));

    const token = new URL(row.unsubscribe_url!).searchParams.get("token");
    expect(await unsubscribe(token)).toEqual({ status: "valid", kind: "bookings" });
    expect((await emailPreferencesOf(who.id)).bookings).toBe(false);
    expect(await enqueueEmail(news())).toBe(false);
    expect(await emailsTo(who.email)).toHaveLength(1);
    // Repeating it changes nothing.
    expect(await unsubscribe(token)).toEqual({ status: "valid", kind: "bookings" });
  });

  it("refuses forged tokens and tokens moved to another person or kind", async () => {
    const who = await person("owner");
    const other = await person("owner");
    const token = unsubscribeToken(who.id, "reviews");
    const [, , signature] = token.split(".");
    const forged = [
      `${other.id}.reviews.${signature}`,
      `${who.id}.bookings.${signature}`,
      `${who.id}.reviews.${signature!.slice(0, -2)}AA`,
      `${who.id}.reviews`,
      `${who.id}.nonsense.${signature}`,
      "",
      "a".repeat(5000),
      null,
      `${token}.extra`,
    ];
    for (const attempt of forged)
      expect(await unsubscribe(attempt), String(attempt).slice(0, 60)).toEqual({ status: "invalid" });
    expect(await emailPreferencesOf(who.id)).toEqual({
      messages: false,
      bookings: true,
      reviews: true,
      marketing: false,
    });
    expect(await emailPreferencesOf(other.id)).toEqual({
      messages: false,
      bookings: true,
      reviews: true,
      marketing: false,
    });
    expect(readUnsubscribeToken(token)).toEqual({ userId: who.id, kind: "reviews" });
  });

  it("saves every kind at once", async () => {
    const who = await person("owner");
    await saveEmailPreferences(who.id, { messages: true, bookings: false, reviews: false, marketing: true });
    expect(await emailPreferencesOf(who.id)).toEqual({
      messages: true,
      bookings: false,
      reviews: false,
      marketing: true,
    });
  });
});

describe("time zone", () => {
  it("takes the browser's zone, else the city's from the gazetteer, else Madrid", async () => {
    const who = await person("owner", { city: "Warsaw", timeZone: "Europe/Madrid" });
    expect(await saveTimeZone(who, "America/New_York")).toBe("America/New_York");
    expect(await saveTimeZone(who, "Not/AZone")).toBe("Europe/Warsaw");
    expect(await saveTimeZone(who, undefined)).toBe("Europe/Warsaw");
    expect(await saveTimeZone({ id: who.id, city: "Nowhere-at-all-ville" }, "")).toBe("Europe/Madrid");
    expect(
      (await db.selectFrom("users").select("time_zone").where("id", "=", who.id).executeTakeFirstOrThrow()).time_zone,
    ).toBe("Europe/Madrid");
  });

  it("finds the zone of a city among its country's zones", async () => {
    expect(await timeZoneOfCity("Barcelona")).toBe("Europe/Madrid");
    expect(await timeZoneOfCity("Lisbon")).toBe("Europe/Lisbon");
    expect(await timeZoneOfCity("Los Angeles")).toBe("America/Los_Angeles");
    expect(await timeZoneOfCity("Nowhere-at-all-ville")).toBeNull();
  });

  it("sign-up keeps the browser's zone, or the city's without one", async () => {
    const withScript = signupInput({ city: "Paris", timeZone: "Asia/Tokyo" });
    const withoutScript = signupInput({ city: "Berlin" });
    const forged = signupInput({ city: "Rome", timeZone: "<script>" });
    for (const input of [withScript, withoutScript, forged]) expect((await signUp(input, "en")).status).toBe("created");
    const zoneOf = async (email: string) =>
      (await db.selectFrom("users").select("time_zone").where("email", "=", email).executeTakeFirstOrThrow()).time_zone;
    expect(await zoneOf(withScript.email)).toBe("Asia/Tokyo");
    expect(await zoneOf(withoutScript.email)).toBe("Europe/Berlin");
    expect(await zoneOf(forged.email)).toBe("Europe/Rome");
  });
});

describe("news by email", () => {
  it("sends a message's news by email only to someone who asked for it, without its text", async () => {
    const { ensureConversation, sendMessage } = await import("~/features/messages/index.server");
    const writer = await person("owner", { name: "Wren Writer" });
    const reader = await person("sitter");
    const conversationId = await ensureConversation(writer.id, reader.id);
    await sendMessage(writer.id, conversationId, "The key is under the mat", null, { image: "📷", video: "🎥" });
    expect(await emailsTo(reader.email)).toEqual([]);

    await saveEmailPreferences(reader.id, { messages: true, bookings: true, reviews: true, marketing: false });
    await sendMessage(writer.id, conversationId, "The key is under the mat", null, { image: "📷", video: "🎥" });
    const [email] = await emailsTo(reader.email);
    expect(email!.subject).toBe("New message from Wren Writer");
    expect(email!.text_body).not.toContain("under the mat");
    expect(email!.text_body).toContain("/unsubscribe?token=");
  });
});
