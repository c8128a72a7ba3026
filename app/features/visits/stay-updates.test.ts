import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { advanceClock, clockTo, DAY, HOUR, resetClockAfterEach } from "~/testing/clock";
import { card, dayAhead, ownerWithPet } from "~/testing/bookings";
import { emailsTo, person } from "~/testing/people";
import { payForBooking, requestStay, transition } from "~/features/bookings/index.server";
import { applyVisitEvent } from "./visits.server";
import { visitPage } from "./views.server";
import { visitReportsForExport } from "./export.server";

resetClockAfterEach();

/** A confirmed 3-night boarding from the sitter's day after tomorrow, 10:00 to 18:00. */
async function boardingStay() {
  const sitter = await person("sitter");
  await db
    .insertInto("sitter_services")
    .values({ sitter_id: sitter.id, service: "boarding", price_cents: 4000, duration_minutes: null })
    .execute();
  const owner = await ownerWithPet();
  const made = await requestStay(owner, {
    id: randomUUID(),
    sitterId: sitter.id,
    service: "boarding",
    petIds: [owner.petId],
    firstDay: dayAhead(sitter.time_zone, 2),
    dropOff: "10:00",
    lastDay: dayAhead(sitter.time_zone, 5),
    pickUp: "18:00",
    notes: "",
  });
  if (made.status !== "created") throw new Error(made.reason);
  expect(["held", "card-saved"]).toContain((await payForBooking(owner, made.booking.id, card(), randomUUID())).status);
  expect((await transition(made.booking.id, { kind: "sitter", userId: sitter.id }, { type: "accept" })).ok).toBe(true);
  return { sitter, owner, booking: made.booking };
}

describe("a stay's daily updates", () => {
  it("one update a day: started, ticked and sent each day, earlier days kept for the owner", async () => {
    const { sitter, owner, booking } = await boardingStay();
    clockTo(booking.start_at, 2 * HOUR);
    expect((await applyVisitEvent(booking.id, sitter.id, { type: "check-in" })).ok).toBe(true);
    expect(
      (await applyVisitEvent(booking.id, sitter.id, { type: "details", quickNotes: ["ate"], note: "Settled in well" }))
        .ok,
    ).toBe(true);
    expect((await applyVisitEvent(booking.id, sitter.id, { type: "check-out" })).ok).toBe(true);
    // Sent: nothing more today.
    expect(await applyVisitEvent(booking.id, sitter.id, { type: "check-in" })).toEqual({
      ok: false,
      refusal: "checkedOut",
    });
    expect((await emailsTo(owner.email)).length).toBeGreaterThan(0);

    advanceClock(DAY);
    const morning = await visitPage(sitter, booking.id, "en");
    expect(morning).toMatchObject({ daily: true, visit: null, can: { checkIn: true } });
    expect(morning?.earlier).toHaveLength(1);
    expect((await applyVisitEvent(booking.id, sitter.id, { type: "check-in" })).ok).toBe(true);
    expect(
      (
        await applyVisitEvent(booking.id, sitter.id, {
          type: "details",
          quickNotes: [],
          note: "Long walk on the beach",
        })
      ).ok,
    ).toBe(true);

    const seen = await visitPage(owner, booking.id, "en");
    expect(seen?.visit).toMatchObject({ status: "checked-in", note: "Long walk on the beach" });
    expect(seen?.earlier).toEqual([
      expect.objectContaining({
        day: dayAhead(sitter.time_zone, -1),
        note: "Settled in well",
        quickNotes: ["ate"],
        status: "checked-out",
      }),
    ]);
    expect(seen?.earlier[0]?.dayLabel).toMatch(/\w+day, \w+ \d+/);

    // Both days in each person's data export; nobody else's.
    const exported = await visitReportsForExport(owner.id);
    expect(exported.reports.map((report) => [report.day, report.note])).toEqual([
      [dayAhead(sitter.time_zone, -1), "Settled in well"],
      [dayAhead(sitter.time_zone, 0), "Long walk on the beach"],
    ]);
    expect((await visitReportsForExport((await person("owner")).id)).reports).toEqual([]);
  });

  it("stays closed before the stay and after its end; a visit that is not a stay keeps its single report", async () => {
    const { sitter, booking } = await boardingStay();
    expect(await applyVisitEvent(booking.id, sitter.id, { type: "check-in" })).toEqual({
      ok: false,
      refusal: "tooEarly",
    });
    clockTo(booking.end_at, HOUR);
    expect(await applyVisitEvent(booking.id, sitter.id, { type: "check-in" })).toEqual({
      ok: false,
      refusal: "visitOver",
    });
    expect((await visitPage(sitter, booking.id, "en"))?.earlier).toEqual([]);
  });
});
