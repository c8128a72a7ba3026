import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { clockTo, HOUR, MINUTE, resetClockAfterEach } from "~/testing/clock";
import { card, ownerWithPet, requestInput, requested, sitterWithSlot } from "~/testing/bookings";
import { emailsTo, noticesOf, person, petOf } from "~/testing/people";
import { payForBooking, requestBooking, transition } from "~/features/bookings/index.server";
import { EMPTY_CARE_PLAN, mayReadCarePlan, saveCarePlan } from "~/features/care/index.server";
import { fileStorage } from "~/features/media/index.server";
import { applyVisitEvent } from "./visits.server";
import { storeVisitMedia } from "./media.server";
import { visitPage } from "./views.server";
import { mayViewVisitMedia, visitReportsForExport } from "./export.server";
import { walkFromRoute } from "./walk";

resetClockAfterEach();

async function bookedVisit() {
  const sitter = await sitterWithSlot({ daysAhead: 3 });
  const owner = await ownerWithPet();
  const booking = await requested(owner, sitter);
  expect(await payForBooking(owner, booking.id, card(), randomUUID())).toEqual({ status: "held" });
  expect((await transition(booking.id, { kind: "sitter", userId: sitter.id }, { type: "accept" })).ok).toBe(true);
  await saveCarePlan(owner.id, owner.petId, {
    feeding: "08:00 – 80 g dry food",
    medication: "09:00 – Apoquel 16 mg",
    walks: "",
    houseNotes: "Keys with the concierge",
    vetName: "Dr. Vega",
    vetPhone: "",
    vetAddress: "",
    emergencyName: "",
    emergencyPhone: "",
  });
  return { sitter, owner, booking };
}

/** Everything a refused request must leave as it was. */
async function visitTables() {
  const tables = ["visits", "visit_items", "visit_media", "messages", "email_outbox", "notifications"] as const;
  return JSON.stringify(await Promise.all(tables.map((table) => db.selectFrom(table).selectAll().execute())));
}

const jpeg = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: "#c84" } })
    .jpeg()
    .toBuffer();

describe("a recorded walk and the booking's place", () => {
  it("refuses a route more than 50 km from the owner's home area (Paris for a Madrid booking), and accepts one in Madrid", async () => {
    const { sitter, booking } = await bookedVisit();
    clockTo(booking.start_at, 5 * MINUTE);
    expect(await applyVisitEvent(booking.id, sitter.id, { type: "check-in" })).toMatchObject({ ok: true });
    const before = await visitTables();
    const paris = walkFromRoute(
      JSON.stringify([
        [48.8566, 2.3522, 0],
        [48.857, 2.3522, 60],
        [48.8574, 2.3522, 120],
      ]),
    )!;
    expect(paris).not.toBeNull();
    expect(await applyVisitEvent(booking.id, sitter.id, { type: "walk", walk: paris })).toEqual({
      ok: false,
      refusal: "routeFarAway",
    });
    // A walk that starts 45 km out and wanders beyond 50 km: every position is checked.
    const away = walkFromRoute(
      JSON.stringify(Array.from({ length: 12 }, (_, index) => [40.8218 + index * 0.009, -3.7038, index * 150])),
    )!;
    expect(away).not.toBeNull();
    expect(await applyVisitEvent(booking.id, sitter.id, { type: "walk", walk: away })).toEqual({
      ok: false,
      refusal: "routeFarAway",
    });
    expect(await visitTables()).toBe(before);
    const madrid = walkFromRoute(
      JSON.stringify([
        [40.4165, -3.7038, 0],
        [40.4169, -3.7038, 60],
        [40.4173, -3.7038, 120],
      ]),
    )!;
    expect(await applyVisitEvent(booking.id, sitter.id, { type: "walk", walk: madrid })).toEqual({
      ok: true,
      changed: true,
    });
  });

  it("measures from the owner's stored position when there is one", async () => {
    const { owner, sitter, booking } = await bookedVisit();
    // The owner lives in Valencia (about 300 km from Madrid, the city on their profile).
    await db.updateTable("users").set({ latitude: 39.47, longitude: -0.376 }).where("id", "=", owner.id).execute();
    clockTo(booking.start_at, 5 * MINUTE);
    expect(await applyVisitEvent(booking.id, sitter.id, { type: "check-in" })).toMatchObject({ ok: true });
    const madrid = walkFromRoute(
      JSON.stringify([
        [40.4165, -3.7038, 0],
        [40.4169, -3.7038, 60],
      ]),
    )!;
    expect(await applyVisitEvent(booking.id, sitter.id, { type: "walk", walk: madrid })).toEqual({
      ok: false,
      refusal: "routeFarAway",
    });
    const valencia = walkFromRoute(
      JSON.stringify([
        [39.47, -0.376, 0],
        [39.4704, -0.376, 60],
      ]),
    )!;
    expect(await applyVisitEvent(booking.id, sitter.id, { type: "walk", walk: valencia })).toEqual({
      ok: true,
      changed: true,
    });
  });
});

describe("a visit, from check-in to the report", () => {
  it("checks in, ticks, notes, walks, adds a photo and checks out: the owner is told at each end and gets the report by email and in the chat", async () => {
    const { sitter, owner, booking } = await bookedVisit();
    clockTo(booking.start_at, -10 * MINUTE);

    expect(await applyVisitEvent(booking.id, sitter.id, { type: "check-in" })).toEqual({ ok: true, changed: true });
    expect(await noticesOf(owner.id)).toContain("visitStarted");
    const live = await db
      .selectFrom("live_events")
      .select("payload")
      .where("user_id", "=", owner.id)
      .where("type", "=", "booking")
      .execute();
    expect(live.map((row) => row.payload)).toContain(JSON.stringify({ bookingId: booking.id }));

    const items = await db
      .selectFrom("visit_items")
      .select(["position", "kind", "label"])
      .where("booking_id", "=", booking.id)
      .orderBy("position")
      .execute();
    expect(items).toEqual([
      { position: 0, kind: "feeding", label: "08:00 – 80 g dry food" },
      { position: 1, kind: "medication", label: "09:00 – Apoquel 16 mg" },
    ]);

    clockTo(booking.start_at, 15 * MINUTE);
    expect(await applyVisitEvent(booking.id, sitter.id, { type: "tick", position: 1 })).toEqual({
      ok: true,
      changed: true,
    });
    expect(await applyVisitEvent(booking.id, sitter.id, { type: "tick", position: 1 })).toEqual({
      ok: true,
      changed: false,
    });
    expect(
      await applyVisitEvent(booking.id, sitter.id, {
        type: "details",
        quickNotes: ["drank", "played"],
        note: "<b>Rex</b> loved the park",
      }),
    ).toMatchObject({ ok: true });
    const walk = walkFromRoute(
      JSON.stringify([
        [40.4165, -3.7038, 0],
        [40.4169, -3.7038, 60],
        [40.4173, -3.7038, 120],
      ]),
    )!;
    expect(await applyVisitEvent(booking.id, sitter.id, { type: "walk", walk })).toMatchObject({ ok: true });
    expect(await storeVisitMedia(booking.id, sitter.id, await jpeg(), "image/jpeg")).toEqual({
      ok: true,
      changed: true,
    });

    const during = await visitPage(owner, booking.id, "en");
    expect(during?.visit?.items.map((item) => [item.label, item.done !== null, item.missed])).toEqual([
      ["08:00 – 80 g dry food", false, false],
      ["09:00 – Apoquel 16 mg", true, false],
    ]);
    expect(during?.visit?.walk?.outline.split(" ")).toHaveLength(3);
    expect(during?.can).toEqual({ checkIn: false, act: false, checkOut: false, walk: false, media: false });

    clockTo(booking.start_at, 50 * MINUTE);
    expect(await applyVisitEvent(booking.id, sitter.id, { type: "check-out" })).toEqual({ ok: true, changed: true });

    expect(await noticesOf(owner.id)).toContain("visitReport");
    const [email] = (await emailsTo(owner.email)).filter((sent) => sent.subject.startsWith("Visit report"));
    expect(email?.subject).toBe(`Visit report for Rex from ${sitter.name}`);
    expect(email?.text_body).toContain("✗ MISSED – Feeding: 08:00 – 80 g dry food");
    expect(email?.text_body).toMatch(/✓ Medication: 09:00 – Apoquel 16 mg, done at \d/);
    expect(email?.text_body).toContain("Quick notes: Drank water, Played");
    expect(email?.text_body).toContain("Walk: 0.1 km in 2 min.");
    expect(email?.text_body).toContain("Photos: 1, videos: 0");
    expect(email?.text_body).toContain(`/bookings/${booking.id}/visit`);
    expect(email?.html_body).toContain("&lt;b&gt;Rex&lt;/b&gt; loved the park");

    const card = await db
      .selectFrom("messages")
      .select(["sender_id", "body", "card_link"])
      .where("card_link", "is not", null)
      .execute();
    expect(card).toEqual([
      {
        sender_id: sitter.id,
        body: "Visit report for Rex: 1 of 2 done, 1 missed.",
        card_link: `/bookings/${booking.id}/visit`,
      },
    ]);

    const report = await visitPage(owner, booking.id, "en");
    expect(report?.visit?.status).toBe("checked-out");
    expect(report?.visit?.items.find((item) => item.position === 0)?.missed).toBe(true);
    expect(report?.visit?.media).toHaveLength(1);
  });

  it("cannot be back-filled after check-out: every change is refused and nothing moves", async () => {
    const { sitter, booking } = await bookedVisit();
    clockTo(booking.start_at, 5 * MINUTE);
    await applyVisitEvent(booking.id, sitter.id, { type: "check-in" });
    await applyVisitEvent(booking.id, sitter.id, { type: "check-out" });
    const before = await visitTables();
    expect(await applyVisitEvent(booking.id, sitter.id, { type: "tick", position: 0 })).toEqual({
      ok: false,
      refusal: "checkedOut",
    });
    expect(
      await applyVisitEvent(booking.id, sitter.id, { type: "details", quickNotes: ["ate"], note: "late" }),
    ).toEqual({ ok: false, refusal: "checkedOut" });
    expect(await applyVisitEvent(booking.id, sitter.id, { type: "check-in" })).toEqual({
      ok: false,
      refusal: "checkedOut",
    });
    expect(await applyVisitEvent(booking.id, sitter.id, { type: "check-out" })).toEqual({
      ok: false,
      refusal: "checkedOut",
    });
    expect(await storeVisitMedia(booking.id, sitter.id, await jpeg(), "image/jpeg")).toEqual({
      ok: false,
      refusal: "checkedOut",
    });
    expect(await visitTables()).toBe(before);
  });
});

describe("refusals change nothing", () => {
  it("refuses a stranger as if the booking did not exist, the owner as not the sitter, and the sitter too early, twice or out of order", async () => {
    const { sitter, owner, booking } = await bookedVisit();
    const stranger = await person("both");
    const before = await visitTables();

    clockTo(booking.start_at, -31 * MINUTE);
    expect(await applyVisitEvent(booking.id, sitter.id, { type: "check-in" })).toEqual({
      ok: false,
      refusal: "tooEarly",
    });
    clockTo(booking.start_at, -29 * MINUTE);
    expect(await applyVisitEvent(booking.id, stranger.id, { type: "check-in" })).toEqual({
      ok: false,
      refusal: "notFound",
    });
    expect(await applyVisitEvent(randomUUID(), sitter.id, { type: "check-in" })).toEqual({
      ok: false,
      refusal: "notFound",
    });
    expect(await applyVisitEvent(booking.id, owner.id, { type: "check-in" })).toEqual({
      ok: false,
      refusal: "notSitter",
    });
    expect(await applyVisitEvent(booking.id, sitter.id, { type: "check-out" })).toEqual({
      ok: false,
      refusal: "notCheckedIn",
    });
    expect(await applyVisitEvent(booking.id, sitter.id, { type: "tick", position: 0 })).toEqual({
      ok: false,
      refusal: "notCheckedIn",
    });
    expect(await visitTables()).toBe(before);

    expect(await applyVisitEvent(booking.id, sitter.id, { type: "check-in" })).toMatchObject({ ok: true });
    const checkedIn = await visitTables();
    expect(await applyVisitEvent(booking.id, sitter.id, { type: "check-in" })).toEqual({
      ok: false,
      refusal: "alreadyCheckedIn",
    });
    expect(await applyVisitEvent(booking.id, sitter.id, { type: "tick", position: 9 })).toEqual({
      ok: false,
      refusal: "unknownItem",
    });
    expect(await applyVisitEvent(booking.id, owner.id, { type: "tick", position: 0 })).toEqual({
      ok: false,
      refusal: "notSitter",
    });
    expect(await applyVisitEvent(booking.id, stranger.id, { type: "tick", position: 0 })).toEqual({
      ok: false,
      refusal: "notFound",
    });
    clockTo(booking.end_at, MINUTE);
    expect(await applyVisitEvent(booking.id, sitter.id, { type: "tick", position: 0 })).toEqual({
      ok: false,
      refusal: "visitOver",
    });
    expect(await visitTables()).toBe(checkedIn);
  });

  it("refuses oversized and disguised files, and a stranger's upload before reading it, leaving no file behind", async () => {
    const { sitter, booking } = await bookedVisit();
    const stranger = await person("both");
    clockTo(booking.start_at, MINUTE);
    await applyVisitEvent(booking.id, sitter.id, { type: "check-in" });
    const before = await visitTables();
    expect(await storeVisitMedia(booking.id, sitter.id, Buffer.alloc(10 * 1024 * 1024 + 1, 1), "image/jpeg")).toEqual({
      ok: false,
      refusal: "tooLarge",
    });
    expect(
      await storeVisitMedia(booking.id, sitter.id, Buffer.from("<?php system($_GET['c']); ?>"), "image/jpeg"),
    ).toEqual({ ok: false, refusal: "invalidMedia" });
    expect(
      await storeVisitMedia(
        booking.id,
        sitter.id,
        Buffer.from("\u0000\u0000\u0000\u0018ftypmp42 but no video"),
        "video/mp4",
      ),
    ).toEqual({ ok: false, refusal: "invalidMedia" });
    expect(await storeVisitMedia(booking.id, stranger.id, await jpeg(), "image/jpeg")).toEqual({
      ok: false,
      refusal: "notFound",
    });
    expect(await visitTables()).toBe(before);
  });
});

describe("who sees what", () => {
  it("opens the care plan to the sitter 24 hours before the start, saying when until then", async () => {
    const { sitter, owner, booking } = await bookedVisit();
    const early = await visitPage(sitter, booking.id, "en");
    expect(early?.plans).toBeNull();
    expect(early?.planOpens).not.toBeNull();
    expect(early?.can.checkIn).toBe(false);
    expect((await visitPage(owner, booking.id, "en"))?.plans?.[0]?.plan.medication).toBe("09:00 – Apoquel 16 mg");
    expect(await visitPage(await person("both"), booking.id, "en")).toBeNull();

    clockTo(booking.start_at, -23 * HOUR);
    const inside = await visitPage(sitter, booking.id, "en");
    expect(inside?.plans?.[0]?.plan.houseNotes).toBe("Keys with the concierge");
    expect(inside?.can.checkIn).toBe(false);
    clockTo(booking.start_at, -20 * MINUTE);
    expect((await visitPage(sitter, booking.id, "en"))?.can.checkIn).toBe(true);
    expect((await visitPage(owner, booking.id, "en"))?.can.checkIn).toBe(false);
  });

  it("shows a visit's files to the booking's two people only, and exports the reports with their files", async () => {
    const { sitter, owner, booking } = await bookedVisit();
    clockTo(booking.start_at, MINUTE);
    await applyVisitEvent(booking.id, sitter.id, { type: "check-in" });
    await storeVisitMedia(booking.id, sitter.id, await jpeg(), "image/jpeg");
    await applyVisitEvent(booking.id, sitter.id, { type: "check-out" });
    const media = await db
      .selectFrom("visit_media")
      .select(["key", "preview_key"])
      .where("booking_id", "=", booking.id)
      .executeTakeFirstOrThrow();
    expect(await fileStorage.read(media.key)).not.toBeNull();
    const stranger = await person("both");
    for (const key of [media.key, media.preview_key!]) {
      expect(await mayViewVisitMedia(stranger.id, key)).toBe(false);
      expect(await mayViewVisitMedia(owner.id, key)).toBe(true);
      expect(await mayViewVisitMedia(sitter.id, key)).toBe(true);
    }

    const exported = await visitReportsForExport(owner.id);
    expect(exported.mediaKeys).toEqual([media.key]);
    expect(exported.reports).toHaveLength(1);
    expect(exported.reports[0]).toMatchObject({
      bookingId: booking.id,
      role: "owner",
      pet: "Rex",
      status: "checked-out",
      media: [{ type: "image", key: media.key }],
    });
    expect(exported.reports[0]!.checklist.map((item) => item.missed)).toEqual([true, true]);
    expect(JSON.parse(JSON.stringify(exported))).toEqual(exported);
    expect((await visitReportsForExport(sitter.id)).reports[0]?.role).toBe("sitter");
    expect(await visitReportsForExport(stranger.id)).toEqual({ reports: [], mediaKeys: [] });
  });
});

describe("several pets", () => {
  it("shows the sitter each booked pet's plan in the window and checks in with every pet's lines, named", async () => {
    const sitter = await sitterWithSlot({ daysAhead: 3 });
    await db.updateTable("users").set({ max_pets: 2 }).where("id", "=", sitter.id).execute();
    const owner = await ownerWithPet();
    const luna = await petOf(owner.id, { name: "Luna" });
    const first = await db.selectFrom("pets").select("name").where("id", "=", owner.petId).executeTakeFirstOrThrow();
    await saveCarePlan(owner.id, owner.petId, { ...EMPTY_CARE_PLAN, feeding: "08:00 – 80 g dry food" });
    await saveCarePlan(owner.id, luna, {
      ...EMPTY_CARE_PLAN,
      medication: "09:00 – Apoquel 16 mg",
      vetName: "Dr. Vega",
    });
    const made = await requestBooking(owner, requestInput(sitter.id, [owner.petId, luna], sitter.day, "10:00", 2));
    if (made.status !== "created") throw new Error(made.reason);
    const booking = made.booking;
    expect(await payForBooking(owner, booking.id, card(), randomUUID())).toEqual({ status: "held" });
    expect((await transition(booking.id, { kind: "sitter", userId: sitter.id }, { type: "accept" })).ok).toBe(true);

    expect((await visitPage(sitter, booking.id, "en"))?.plans).toBeNull();
    expect(await mayReadCarePlan(sitter.id, luna)).toBe(false);
    clockTo(booking.start_at, -20 * MINUTE);
    const page = await visitPage(sitter, booking.id, "en");
    expect(page?.plans?.map((pet) => [pet.petName, pet.plan.feeding, pet.plan.vetName])).toEqual([
      [first.name, "08:00 – 80 g dry food", ""],
      ["Luna", "", "Dr. Vega"],
    ]);
    expect(await mayReadCarePlan(sitter.id, luna)).toBe(true);
    expect(await mayReadCarePlan((await person("sitter")).id, luna)).toBe(false);

    expect((await applyVisitEvent(booking.id, sitter.id, { type: "check-in" })).ok).toBe(true);
    const items = (await visitPage(owner, booking.id, "en"))?.visit?.items.map((item) => item.label);
    expect(items).toHaveLength(2);
    expect(items?.[0]).toBe(`${first.name}: 08:00 – 80 g dry food`);
    expect(items?.[1]).toBe("Luna: 09:00 – Apoquel 16 mg");
    expect((await visitPage(owner, booking.id, "en"))?.booking.petName).toBe(`${first.name} and Luna`);
    expect((await visitPage(owner, booking.id, "fr"))?.booking.petName).toBe(`${first.name} et Luna`);
  });
});
