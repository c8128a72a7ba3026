import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { advanceClock, HOUR, MINUTE, resetClockAfterEach, DAY } from "~/testing/clock";
import { card, ownerWithPet, requested, sitterWithSlot } from "~/testing/bookings";
import { transition } from "./bookings.server";
import { payForBooking } from "./payment-entry.server";
import { reliabilitySection, responseTimeOf, sitterReliability } from "./reliability.server";
import type { Actor } from "./machine";

resetClockAfterEach();

const asSitter = (who: { id: string }): Actor => ({ kind: "sitter", userId: who.id });
const asOwner = (who: { id: string }): Actor => ({ kind: "owner", userId: who.id });

/** `count` owners' requests for the sitter's day two days ahead, one hour each from 09:00, cards held. */
async function heldRequests(count: number) {
  const sitter = await sitterWithSlot({ daysAhead: 2, from: "08:00", to: "18:00" });
  const requests = [];
  for (let i = 0; i < count; i++) {
    const owner = await ownerWithPet();
    const booking = await requested(owner, sitter, `${String(9 + i).padStart(2, "0")}:00`, 1);
    expect(await payForBooking(owner, booking.id, card(), randomUUID())).toEqual({ status: "held" });
    requests.push({ owner, booking });
  }
  return { sitter, requests };
}

async function answer(sitter: { id: string }, bookingId: string, type: "accept" | "decline") {
  expect((await transition(bookingId, asSitter(sitter), { type })).ok).toBe(true);
}

describe("a sitter's reliability figures", () => {
  it("stay hidden below five requests that reached the sitter; an unpaid request does not count", async () => {
    const { sitter } = await heldRequests(4);
    // A request whose card was never given never reached the sitter.
    await requested(await ownerWithPet(), sitter, "15:00", 1);
    expect((await sitterReliability(sitter.id)).requests).toBe(4);
    expect(await reliabilitySection(sitter.id, "en")).toBeNull();
  });

  it("give the median time to answer, the share accepted of those decided, and leave withdrawn or waiting requests out of the rates", async () => {
    const { sitter, requests } = await heldRequests(7);
    const [first, second, third, fourth, fifth, withdrawn] = requests.map((r) => r.booking.id);
    advanceClock(30 * MINUTE);
    await answer(sitter, first!, "accept");
    advanceClock(30 * MINUTE);
    await answer(sitter, second!, "accept");
    advanceClock(HOUR);
    await answer(sitter, third!, "decline");
    advanceClock(HOUR);
    await answer(sitter, fourth!, "accept");
    advanceClock(2 * HOUR);
    await answer(sitter, fifth!, "accept");
    expect(
      (await transition(withdrawn!, asOwner(requests[5]!.owner), { type: "cancel", reason: "changed plans" })).ok,
    ).toBe(true);

    const figures = await sitterReliability(sitter.id);
    expect(figures).toMatchObject({ requests: 7, accepted: 4, decided: 5, clients: 0, repeatClients: 0 });
    // Answers after 30 min, 1 h, 2 h, 3 h and 5 h: the middle one is 2 hours.
    expect(Math.round(figures.medianResponseMs! / MINUTE)).toBe(120);
    expect(await reliabilitySection(sitter.id, "en")).toEqual({
      requests: 7,
      response: { unit: "hours", count: 2 },
      acceptance: "80%",
      clients: 0,
      repeatClients: 0,
    });
    expect((await reliabilitySection(sitter.id, "fr"))?.acceptance).toBe("80\u00a0%");
  });

  it("count another sitter's requests for nobody else, and forget requests older than 90 days", async () => {
    const { sitter } = await heldRequests(5);
    const other = await heldRequests(5);
    expect((await sitterReliability(sitter.id)).requests).toBe(5);
    expect((await sitterReliability(other.sitter.id)).requests).toBe(5);
    advanceClock(91 * DAY);
    expect((await sitterReliability(sitter.id)).requests).toBe(0);
    expect(await reliabilitySection(sitter.id, "en")).toBeNull();
  });

  it("count the owners cared for in the last year and those who came back", async () => {
    const sitter = await sitterWithSlot({ daysAhead: 2, from: "08:00", to: "18:00" });
    const regular = await ownerWithPet();
    const once = await ownerWithPet();
    const ids = [];
    for (const [owner, time] of [
      [regular, "09:00"],
      [regular, "11:00"],
      [once, "13:00"],
    ] as const) {
      const booking = await requested(owner, sitter, time, 1);
      expect(await payForBooking(owner, booking.id, card(), randomUUID())).toEqual({ status: "held" });
      await answer(sitter, booking.id, "accept");
      ids.push(booking.id);
    }
    advanceClock(3 * DAY);
    for (const id of ids) expect((await transition(id, asSitter(sitter), { type: "finish" })).ok).toBe(true);
    expect(await sitterReliability(sitter.id)).toMatchObject({ clients: 2, repeatClients: 1, accepted: 3, decided: 3 });
    advanceClock(366 * DAY);
    expect(await sitterReliability(sitter.id)).toMatchObject({ clients: 0, repeatClients: 0 });
  });

  it("say durations in the unit people use", () => {
    expect(responseTimeOf(10_000)).toEqual({ unit: "minutes", count: 1 });
    expect(responseTimeOf(89 * MINUTE)).toEqual({ unit: "minutes", count: 89 });
    expect(responseTimeOf(90 * MINUTE)).toEqual({ unit: "hours", count: 2 });
    expect(responseTimeOf(47 * HOUR)).toEqual({ unit: "hours", count: 47 });
    expect(responseTimeOf(60 * HOUR)).toEqual({ unit: "days", count: 3 });
  });
});
