import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { instantAt } from "~/platform/time";
import { addSavedCard, paymentProvider } from "~/features/payments/index.server";
import { blockPerson } from "~/features/safety/index.server";
import { runDueBookingWork } from "~/features/bookings/index.server";
import { card, ownerWithPet, slot, type Owner } from "~/testing/bookings";
import { clockTo, resetClockAfterEach } from "~/testing/clock";
import { emailsTo, noticesOf, person, petOf } from "~/testing/people";
import { datesBetween, decideSeries, proposalProblem, weekdayOf } from "./machine";
import { actOnSeries, requestSeries, type SeriesRequestInput } from "./series.server";
import { generateFor, runDueSeriesWork } from "./generator.server";
import { seriesView, weekdayNames } from "./views.server";

resetClockAfterEach();

// Monday 4 March 2030, 09:00 in Madrid.
const MONDAY = "2030-03-04";
const MON = 1;
const WED = 3;
const FRI = 5;

async function walker(timeZone = "Europe/Madrid") {
  const sitter = await person("sitter", { timeZone });
  await db
    .insertInto("sitter_services")
    .values({ sitter_id: sitter.id, service: "walk", price_cents: 1500, duration_minutes: 60 })
    .execute();
  return sitter;
}

async function ownerWithCard(): Promise<Owner> {
  const owner = await ownerWithPet();
  const saved = await addSavedCard(
    owner,
    card(),
    randomUUID(),
    { makeDefault: true },
    paymentProvider(),
    async () => null,
  );
  if (saved.status !== "saved") throw new Error("card not saved");
  return owner;
}

/** A free slot 07:00-12:00 on a day, so the first date's 08:00 can be asked for. */
const freeMorning = (sitter: { id: string; time_zone: string }, day: string) =>
  slot(sitter.id, instantAt(sitter.time_zone, day, "07:00"), instantAt(sitter.time_zone, day, "12:00"));

const input = (sitterId: string, owner: Owner, over: Partial<SeriesRequestInput> = {}): SeriesRequestInput => ({
  id: randomUUID(),
  sitterId,
  service: "walk",
  petIds: [owner.petId],
  day: "2030-03-06",
  startTime: "08:00",
  weekdays: [MON, WED, FRI],
  lastDay: null,
  notes: "",
  ...over,
});

const seriesRow = (id: string) =>
  db.selectFrom("care_series").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

const occurrencesOf = (seriesId: string) =>
  db
    .selectFrom("bookings")
    .selectAll()
    .where("series_id", "=", seriesId)
    .orderBy("series_day")
    .orderBy("created_at")
    .execute();

/** A Mon/Wed/Fri 08:00 walk series from Wednesday 6 March, asked on Monday 4 March and accepted. */
async function acceptedSeries(over: Partial<SeriesRequestInput> = {}) {
  clockTo(instantAt("Europe/Madrid", MONDAY, "09:00"), 0);
  const sitter = await walker();
  const owner = await ownerWithCard();
  await freeMorning(sitter, over.day ?? "2030-03-06");
  const asked = await requestSeries(owner, input(sitter.id, owner, over));
  if (!asked.ok) throw new Error(`refused: ${asked.refusal}`);
  const accepted = await actOnSeries(sitter, asked.series.id, { type: "accept" });
  if (!accepted.ok) throw new Error(`not accepted: ${accepted.refusal}`);
  return { sitter, owner, series: accepted.series };
}

describe("the weekly care rules", () => {
  it("a series' dates follow the schedule in force on each day, from its first day to its last", () => {
    const series = {
      owner_id: "o",
      sitter_id: "s",
      status: "active" as const,
      first_day: "2030-03-06",
      last_day: "2030-03-20",
    };
    const schedules = [
      {
        id: "a",
        from_day: "2030-03-06",
        weekdays: "1,3,5",
        start_time: "08:00",
        status: "accepted" as const,
        proposed_by: "owner" as const,
      },
      {
        id: "b",
        from_day: "2030-03-12",
        weekdays: "2,4",
        start_time: "09:00",
        status: "accepted" as const,
        proposed_by: "sitter" as const,
      },
      {
        id: "c",
        from_day: "2030-03-18",
        weekdays: "7",
        start_time: "10:00",
        status: "declined" as const,
        proposed_by: "owner" as const,
      },
    ];
    const dates = datesBetween(series, schedules, "2030-03-01", "2030-03-31").map(
      ({ day, schedule }) => `${day}/${schedule.id}`,
    );
    expect(dates).toEqual([
      "2030-03-06/a",
      "2030-03-08/a",
      "2030-03-11/a",
      "2030-03-12/b",
      "2030-03-14/b",
      "2030-03-19/b",
    ]);
    expect(weekdayOf("2030-03-04")).toBe(MON);
    expect(weekdayOf("2030-03-10")).toBe(7);
  });

  it("refuses no weekday, a past first day, one not on a chosen weekday, or one too far ahead", () => {
    const asked = { fromDay: "2030-03-06", weekdays: [WED], startTime: "08:00" };
    expect(proposalProblem(asked, MONDAY)).toBeNull();
    expect(proposalProblem({ ...asked, weekdays: [] }, MONDAY)).toBe("noWeekday");
    expect(proposalProblem({ ...asked, fromDay: "2030-03-03", weekdays: [7] }, MONDAY)).toBe("pastDay");
    expect(proposalProblem({ ...asked, weekdays: [MON, FRI] }, MONDAY)).toBe("firstDayNotChosen");
    expect(proposalProblem({ ...asked, fromDay: "2030-07-03" }, MONDAY)).toBe("tooFar");
    expect(proposalProblem({ ...asked, fromDay: "2030-02-30" }, MONDAY)).toBe("pastDay");
  });

  it("only the sitter accepts; only the side that did not propose a change answers it", () => {
    const series = {
      owner_id: "o",
      sitter_id: "s",
      status: "requested" as const,
      first_day: "2030-03-06",
      last_day: null,
    };
    const pending = {
      id: "a",
      from_day: "2030-03-06",
      weekdays: "3",
      start_time: "08:00",
      status: "proposed" as const,
      proposed_by: "owner" as const,
    };
    const context = { today: MONDAY, schedules: [pending], pending };
    const owner = { side: "owner" as const, userId: "o" };
    const sitter = { side: "sitter" as const, userId: "s" };
    const refusal = (result: ReturnType<typeof decideSeries>) => (result.ok ? "allowed" : result.refusal);
    expect(refusal(decideSeries(series, owner, { type: "accept" }, context))).toBe("notYours");
    expect(refusal(decideSeries(series, { side: "sitter", userId: "o" }, { type: "accept" }, context))).toBe(
      "notYours",
    );
    expect(refusal(decideSeries(series, sitter, { type: "accept" }, context))).toBe("allowed");
    expect(refusal(decideSeries(series, sitter, { type: "withdraw" }, context))).toBe("notYours");
    const active = { ...series, status: "active" as const };
    const change = { ...pending, id: "b", from_day: "2030-03-11", proposed_by: "sitter" as const };
    const changing = {
      today: MONDAY,
      schedules: [{ ...pending, status: "accepted" as const }, change],
      pending: change,
    };
    expect(refusal(decideSeries(active, sitter, { type: "accept-change" }, changing))).toBe("notYours");
    expect(refusal(decideSeries(active, owner, { type: "accept-change" }, changing))).toBe("allowed");
    expect(refusal(decideSeries(active, sitter, { type: "withdraw-change" }, changing))).toBe("allowed");
    expect(
      refusal(
        decideSeries(
          active,
          owner,
          { type: "propose-change", proposal: { fromDay: "2030-03-12", weekdays: [2], startTime: "09:00" } },
          changing,
        ),
      ),
    ).toBe("changePending");
  });

  it("names the weekdays in the reader's language", () => {
    expect(weekdayNames("en", [MON, WED, FRI])).toBe("Mon, Wed, and Fri");
    expect(weekdayNames("de", [MON, WED])).toBe("Mo und Mi");
  });
});

describe("asking for weekly care", () => {
  it("an owner asks a sitter once; the sitter is told and nothing is booked until the sitter accepts", async () => {
    clockTo(instantAt("Europe/Madrid", MONDAY, "09:00"), 0);
    const sitter = await walker();
    const owner = await ownerWithCard();
    await freeMorning(sitter, "2030-03-06");
    const asked = input(sitter.id, owner);
    const first = await requestSeries(owner, asked);
    const again = await requestSeries(owner, asked);
    expect(first).toMatchObject({ ok: true, series: { status: "requested", price_cents: 1500, minutes: 60 } });
    expect(again.ok && first.ok && again.series.id === first.series.id).toBe(true);
    if (!first.ok) return;
    expect(await noticesOf(sitter.id)).toContain("series_requested");
    expect(await occurrencesOf(first.series.id)).toEqual([]);
    const view = await seriesView(sitter.id, first.series.id, "en");
    expect(view).toMatchObject({ as: "sitter", days: "Mon, Wed, and Fri", startTime: "08:00", can: { accept: true } });
    expect(view?.next.map((date) => date.day)).toEqual([
      "2030-03-06",
      "2030-03-08",
      "2030-03-11",
      "2030-03-13",
      "2030-03-15",
      "2030-03-18",
      "2030-03-20",
      "2030-03-22",
    ]);
  });

  it("refuses what cannot be booked, and changes nothing", async () => {
    clockTo(instantAt("Europe/Madrid", MONDAY, "09:00"), 0);
    const sitter = await walker();
    const owner = await ownerWithCard();
    await freeMorning(sitter, "2030-03-06");
    const refused = async (over: Partial<SeriesRequestInput>, who: Owner = owner) => {
      const result = await requestSeries(who, input(sitter.id, who, over));
      return result.ok ? "created" : result.refusal;
    };
    expect(await refused({ weekdays: [] })).toBe("noWeekday");
    expect(await refused({ day: "2030-03-01", weekdays: [FRI] })).toBe("pastDay");
    expect(await refused({ weekdays: [MON, FRI] })).toBe("firstDayNotChosen");
    expect(await refused({ lastDay: "2030-03-05" })).toBe("lastBeforeFirst");
    expect(await refused({ startTime: "15:00" })).toBe("notFreeThen");
    expect(await refused({ day: "2030-03-08", weekdays: [FRI] })).toBe("notFreeThen");
    expect(await refused({ service: "drop_in" })).toBe("serviceNotOffered");
    const stranger = await ownerWithPet();
    expect(await refused({ petIds: [stranger.petId] })).toBe("petNotFound");
    expect(await refused({}, { ...(await ownerWithPet()) })).toBe("noCard");
    expect(await refused({ sitterId: owner.id })).toBe("sitterNotFound");
    const blocker = await ownerWithCard();
    await blockPerson(sitter.id, blocker.id);
    expect(await refused({}, blocker)).toBe("sitterNotFound");
    const rows = await db.selectFrom("care_series").select("id").where("sitter_id", "=", sitter.id).execute();
    expect(rows).toEqual([]);
  });
});

describe("the scheduler makes each date its own booking a week ahead", () => {
  it("accepting books the coming week's dates at once, confirmed, the card held two days before; a second round makes nothing", async () => {
    const { owner, series } = await acceptedSeries();
    const made = await occurrencesOf(series.id);
    expect(made.map((booking) => booking.series_day)).toEqual(["2030-03-06", "2030-03-08", "2030-03-11"]);
    for (const booking of made) {
      expect(booking).toMatchObject({
        status: "confirmed",
        service_type: "walk",
        total_cents: 1800,
        payment_status: "unpaid",
      });
      expect(booking.card_ref).not.toBeNull();
    }
    // Wednesday's walk is within two days: held at once (the booking round places it); the others two days before.
    expect(new Date(made[0]!.hold_due_at!).getTime()).toBeLessThan(new Date("2030-03-04T08:01:00Z").getTime());
    expect(made.slice(1).map((booking) => booking.hold_due_at)).toEqual([
      "2030-03-06T07:00:00.000Z",
      "2030-03-09T07:00:00.000Z",
    ]);
    expect(made[0]!.start_at).toBe("2030-03-06T07:00:00.000Z");
    expect(await noticesOf(owner.id)).toContain("series_accepted");
    expect(await generateFor(await seriesRow(series.id))).toBe(0);
    expect(await occurrencesOf(series.id)).toHaveLength(3);
  });

  it("making the same dates twice at once books each date once (several instances)", async () => {
    const { series } = await acceptedSeries();
    clockTo(instantAt("Europe/Madrid", "2030-03-06", "10:00"), 0);
    const [one, two] = await Promise.all([generateFor(series), generateFor(series)]);
    expect(one + two).toBe(1);
    expect((await occurrencesOf(series.id)).map((booking) => booking.series_day)).toEqual([
      "2030-03-06",
      "2030-03-08",
      "2030-03-11",
      "2030-03-13",
    ]);
  });

  it("a week later the holds are placed two days before each date, and the first walks went ahead", async () => {
    const { series } = await acceptedSeries();
    clockTo(instantAt("Europe/Madrid", "2030-03-09", "09:00"), 0);
    await runDueSeriesWork();
    await runDueBookingWork();
    const byDay = new Map((await occurrencesOf(series.id)).map((booking) => [booking.series_day, booking]));
    expect(byDay.get("2030-03-06")?.status).toBe("completed");
    expect(byDay.get("2030-03-11")).toMatchObject({ status: "confirmed", payment_status: "held" });
    expect(byDay.get("2030-03-15")).toMatchObject({ status: "confirmed", payment_status: "unpaid" });
    expect([...byDay.keys()]).toContain("2030-03-15");
  });

  it("a date on a day the sitter marked not free is skipped and the owner told; without a usable card both are told", async () => {
    clockTo(instantAt("Europe/Madrid", MONDAY, "09:00"), 0);
    const sitter = await walker();
    await db.insertInto("sitter_days_off").values({ sitter_id: sitter.id, day: "2030-03-08" }).execute();
    const owner = await ownerWithCard();
    await freeMorning(sitter, "2030-03-06");
    const asked = await requestSeries(owner, input(sitter.id, owner));
    if (!asked.ok) throw new Error(asked.refusal);
    await actOnSeries(sitter, asked.series.id, { type: "accept" });
    const byDay = new Map((await occurrencesOf(asked.series.id)).map((booking) => [booking.series_day, booking]));
    expect(byDay.get("2030-03-08")).toMatchObject({ status: "cancelled", cancel_reason: "notFree" });
    expect(await noticesOf(owner.id)).toContain("notFree");
    await db.deleteFrom("payment_methods").where("user_id", "=", owner.id).execute();
    clockTo(instantAt("Europe/Madrid", "2030-03-07", "09:00"), 0);
    await runDueSeriesWork();
    const later = (await occurrencesOf(asked.series.id)).find((booking) => booking.series_day === "2030-03-13");
    expect(later).toMatchObject({ status: "cancelled", cancel_reason: "payment", payment_status: "failed" });
    expect(await noticesOf(sitter.id)).toContain("cancelledPayment");
  });
});

describe("a hold that fails", () => {
  it("cancels only that date and tells both people; the series goes on", async () => {
    clockTo(instantAt("Europe/Madrid", MONDAY, "09:00"), 0);
    const sitter = await walker();
    const owner = await ownerWithCard();
    await freeMorning(sitter, "2030-03-06");
    const asked = await requestSeries(owner, input(sitter.id, owner));
    if (!asked.ok) throw new Error(asked.refusal);
    await actOnSeries(sitter, asked.series.id, { type: "accept" });
    // Wednesday's walk is held at once, but the card has since run out of funds.
    const [first] = await occurrencesOf(asked.series.id);
    await db.updateTable("test_payments").set({ status: "no-funds" }).where("ref", "=", first!.card_ref!).execute();
    await runDueBookingWork();
    const byDay = new Map((await occurrencesOf(asked.series.id)).map((booking) => [booking.series_day, booking]));
    expect(byDay.get("2030-03-06")).toMatchObject({
      status: "cancelled",
      cancel_reason: "payment",
      payment_status: "failed",
    });
    expect(byDay.get("2030-03-08")).toMatchObject({ status: "confirmed", payment_status: "unpaid" });
    expect(await noticesOf(owner.id)).toContain("holdFailed");
    expect(await noticesOf(sitter.id)).toContain("cancelledPayment");
    expect((await seriesRow(asked.series.id)).status).toBe("active");
  });
});

describe("skipping, changing and ending", () => {
  it("the owner skips a booked date (the policy refunds it in full this far ahead) and a date not yet booked", async () => {
    const { sitter, owner, series } = await acceptedSeries();
    const booked = await actOnSeries(owner, series.id, { type: "skip", day: "2030-03-11" });
    expect(booked.ok).toBe(true);
    const planned = await actOnSeries(owner, series.id, { type: "skip", day: "2030-03-15" });
    expect(planned.ok).toBe(true);
    const eleventh = (await occurrencesOf(series.id)).find((booking) => booking.series_day === "2030-03-11");
    expect(eleventh).toMatchObject({ status: "cancelled", cancelled_by: "owner", cancel_reason: "skipped" });
    expect(await noticesOf(sitter.id)).toContain("series_skipped");
    clockTo(instantAt("Europe/Madrid", "2030-03-09", "09:00"), 0);
    await runDueSeriesWork();
    expect((await occurrencesOf(series.id)).map((booking) => booking.series_day)).not.toContain("2030-03-15");
    const view = await seriesView(owner.id, series.id, "en");
    expect(view?.next.find((date) => date.day === "2030-03-15")?.state).toBe("skipped");
  });

  it("refuses a skip of a past date, a day not in the series, twice, or by someone else", async () => {
    const { owner, series } = await acceptedSeries();
    const refusal = async (who: { id: string }, day: string) => {
      const result = await actOnSeries(who, series.id, { type: "skip", day });
      return result.ok ? "allowed" : result.refusal;
    };
    expect(await refusal(owner, "2030-03-01")).toBe("pastDay");
    expect(await refusal(owner, "2030-03-07")).toBe("notPlanned");
    expect(await refusal(owner, "2030-03-08")).toBe("allowed");
    expect(await refusal(owner, "2030-03-08")).toBe("alreadySkipped");
    expect(await refusal(await person("owner"), "2030-03-11")).toBe("notFound");
    expect(await seriesView((await person("sitter")).id, series.id, "en")).toBeNull();
  });

  it("a change from a date on, accepted by the sitter: booked dates from then on end in full and the new ones are made", async () => {
    const { sitter, owner, series } = await acceptedSeries();
    const proposal = { fromDay: "2030-03-12", weekdays: [2, 4], startTime: "09:30" };
    const proposed = await actOnSeries(owner, series.id, { type: "propose-change", proposal });
    expect(proposed.ok).toBe(true);
    expect((await actOnSeries(owner, series.id, { type: "accept-change" })).ok).toBe(false);
    expect((await actOnSeries(sitter, series.id, { type: "accept-change" })).ok).toBe(true);
    clockTo(instantAt("Europe/Madrid", "2030-03-07", "09:00"), 0);
    await runDueSeriesWork();
    await runDueBookingWork();
    const made = (await occurrencesOf(series.id)).map((booking) => `${booking.series_day} ${booking.status}`);
    expect(made).toEqual([
      "2030-03-06 completed",
      "2030-03-08 confirmed",
      "2030-03-11 confirmed",
      "2030-03-12 confirmed",
      "2030-03-14 confirmed",
    ]);
    const twelfth = (await occurrencesOf(series.id)).find((booking) => booking.series_day === "2030-03-12");
    expect(twelfth?.start_at).toBe("2030-03-12T08:30:00.000Z");
  });

  it("a change accepted after its dates were booked cancels those in full", async () => {
    const { sitter, owner, series } = await acceptedSeries();
    await actOnSeries(sitter, series.id, {
      type: "propose-change",
      proposal: { fromDay: "2030-03-08", weekdays: [FRI], startTime: "10:00" },
    });
    expect((await actOnSeries(owner, series.id, { type: "accept-change" })).ok).toBe(true);
    const rows = await occurrencesOf(series.id);
    const eighth = rows.filter((booking) => booking.series_day === "2030-03-08");
    expect(eighth.map((booking) => [booking.status, booking.cancel_reason])).toEqual([
      ["cancelled", "seriesChanged"],
      ["confirmed", null],
    ]);
    expect(rows.find((booking) => booking.series_day === "2030-03-11")?.cancel_reason).toBe("seriesChanged");
  });

  it("ending keeps what is past, cancels what is booked, and makes nothing more", async () => {
    const { sitter, owner, series } = await acceptedSeries();
    clockTo(instantAt("Europe/Madrid", "2030-03-07", "09:00"), 0);
    await runDueBookingWork();
    expect((await actOnSeries(sitter, series.id, { type: "end" })).ok).toBe(true);
    const rows = await occurrencesOf(series.id);
    expect(rows.map((booking) => `${booking.series_day} ${booking.status}`)).toEqual([
      "2030-03-06 completed",
      "2030-03-08 cancelled",
      "2030-03-11 cancelled",
    ]);
    expect(rows[1]).toMatchObject({ cancelled_by: "sitter", cancel_reason: "seriesEnded" });
    expect(await noticesOf(owner.id)).toContain("series_ended");
    clockTo(instantAt("Europe/Madrid", "2030-03-12", "09:00"), 0);
    expect(await generateFor(await seriesRow(series.id))).toBe(0);
    expect(await occurrencesOf(series.id)).toHaveLength(3);
    expect((await actOnSeries(owner, series.id, { type: "skip", day: "2030-03-13" })).ok).toBe(false);
  });
});

describe("daylight saving", () => {
  it("keeps 08:00 on the sitter's wall clock across Madrid's change and Moscow's lack of one", async () => {
    const schedule = [
      {
        id: "a",
        from_day: "2030-03-25",
        weekdays: "1",
        start_time: "08:00",
        status: "accepted" as const,
        proposed_by: "owner" as const,
      },
    ];
    const series = {
      owner_id: "o",
      sitter_id: "s",
      status: "active" as const,
      first_day: "2030-03-25",
      last_day: null,
    };
    const days = datesBetween(series, schedule, "2030-03-25", "2030-04-08").map(({ day }) => day);
    expect(days).toEqual(["2030-03-25", "2030-04-01", "2030-04-08"]);
    // Madrid moves to summer time on Sunday 31 March 2030; Moscow stays at UTC+3.
    expect(days.map((day) => instantAt("Europe/Madrid", day, "08:00").toISOString())).toEqual([
      "2030-03-25T07:00:00.000Z",
      "2030-04-01T06:00:00.000Z",
      "2030-04-08T06:00:00.000Z",
    ]);
    expect(days.map((day) => instantAt("Europe/Moscow", day, "08:00").toISOString())).toEqual([
      "2030-03-25T05:00:00.000Z",
      "2030-04-01T05:00:00.000Z",
      "2030-04-08T05:00:00.000Z",
    ]);
    // Autumn: Madrid's 27 October 2030.
    expect(instantAt("Europe/Madrid", "2030-10-28", "08:00").toISOString()).toBe("2030-10-28T07:00:00.000Z");
  });

  it("the scheduler books a Madrid series at 08:00 local on both sides of the change", async () => {
    clockTo(instantAt("Europe/Madrid", "2030-03-25", "06:00"), 0);
    const sitter = await walker();
    const owner = await ownerWithCard();
    await freeMorning(sitter, "2030-03-25");
    const asked = await requestSeries(owner, input(sitter.id, owner, { day: "2030-03-25", weekdays: [MON] }));
    if (!asked.ok) throw new Error(asked.refusal);
    await actOnSeries(sitter, asked.series.id, { type: "accept" });
    expect((await occurrencesOf(asked.series.id)).map((booking) => booking.start_at)).toEqual([
      "2030-03-25T07:00:00.000Z",
      "2030-04-01T06:00:00.000Z",
    ]);
  });

  it("and a Moscow series at 08:00 local, its days in Moscow", async () => {
    clockTo(instantAt("Europe/Moscow", "2030-03-25", "06:00"), 0);
    const sitter = await walker("Europe/Moscow");
    const owner = await ownerWithCard();
    await freeMorning(sitter, "2030-03-25");
    const asked = await requestSeries(owner, input(sitter.id, owner, { day: "2030-03-25", weekdays: [MON] }));
    if (!asked.ok) throw new Error(asked.refusal);
    await actOnSeries(sitter, asked.series.id, { type: "accept" });
    const rows = await occurrencesOf(asked.series.id);
    expect(rows.map((booking) => [booking.series_day, booking.start_at])).toEqual([
      ["2030-03-25", "2030-03-25T05:00:00.000Z"],
      ["2030-04-01", "2030-04-01T05:00:00.000Z"],
    ]);
  });
});

it("a block between the two ends the series at the next round", async () => {
  const { sitter, owner, series } = await acceptedSeries();
  await blockPerson(owner.id, sitter.id);
  clockTo(instantAt("Europe/Madrid", "2030-03-07", "09:00"), 0);
  expect(await generateFor(await seriesRow(series.id))).toBe(0);
  const row = await db
    .selectFrom("care_series")
    .select(["status", "ended_by"])
    .where("id", "=", series.id)
    .executeTakeFirst();
  expect(row).toEqual({ status: "ended", ended_by: "system" });
});

it("pets named when a series is asked keep their names if renamed later", async () => {
  const { owner, series } = await acceptedSeries();
  const luna = await petOf(owner.id, { name: "Luna" });
  expect(luna).toBeTruthy();
  await db.updateTable("pets").set({ name: "Rexie" }).where("id", "=", owner.petId).execute();
  clockTo(instantAt("Europe/Madrid", "2030-03-07", "09:00"), 0);
  await runDueSeriesWork();
  const latest = (await occurrencesOf(series.id)).at(-1);
  expect(latest?.pet_name).toBe("Rexie");
});

describe("weekly day care", () => {
  async function dayCarer(maxPets = 2) {
    const sitter = await person("sitter");
    await db.updateTable("users").set({ max_pets: maxPets }).where("id", "=", sitter.id).execute();
    await db
      .insertInto("sitter_services")
      .values({ sitter_id: sitter.id, service: "day_care", price_cents: 3000, duration_minutes: null })
      .execute();
    return sitter;
  }
  const dayCare = (sitterId: string, owner: Owner, over: Partial<SeriesRequestInput> = {}) =>
    input(sitterId, owner, { service: "day_care", startTime: "08:30", endTime: "17:30", weekdays: [WED], ...over });

  it("each Wednesday is a day of day care from drop-off to pick-up, priced per day and held two days before", async () => {
    clockTo(instantAt("Europe/Madrid", MONDAY, "09:00"), 0);
    const sitter = await dayCarer();
    const owner = await ownerWithCard();
    const asked = await requestSeries(owner, dayCare(sitter.id, owner));
    if (!asked.ok) throw new Error(asked.refusal);
    expect(asked.series).toMatchObject({ service: "day_care", minutes: 540, price_cents: 3000 });
    await actOnSeries(sitter, asked.series.id, { type: "accept" });
    const [first] = await occurrencesOf(asked.series.id);
    expect(first).toMatchObject({
      service_type: "day_care",
      status: "confirmed",
      start_at: "2030-03-06T07:30:00.000Z",
      end_at: "2030-03-06T16:30:00.000Z",
      hours: 1,
      total_cents: 3600,
      payment_mode: "hold",
    });
    const view = await seriesView(owner.id, asked.series.id, "en");
    expect(view).toMatchObject({ startTime: "08:30", endTime: "17:30" });
  });

  it("refuses a pick-up before the drop-off, and a first day with no room", async () => {
    clockTo(instantAt("Europe/Madrid", MONDAY, "09:00"), 0);
    const sitter = await dayCarer(1);
    const owner = await ownerWithCard();
    const early = await requestSeries(owner, dayCare(sitter.id, owner, { endTime: "08:00" }));
    expect(early.ok ? "created" : early.refusal).toBe("pickUpBeforeDropOff");
    // Another owner's dog already fills the one place on the first Wednesday.
    const other = await ownerWithCard();
    const taken = await requestSeries(other, dayCare(sitter.id, other));
    if (!taken.ok) throw new Error(taken.refusal);
    await actOnSeries(sitter, taken.series.id, { type: "accept" });
    const full = await requestSeries(owner, dayCare(sitter.id, owner));
    expect(full.ok ? "created" : full.refusal).toBe("notFreeThen");
  });

  it("a date with no room left is skipped and the owner told", async () => {
    clockTo(instantAt("Europe/Madrid", MONDAY, "09:00"), 0);
    const sitter = await dayCarer(1);
    const owner = await ownerWithCard();
    const asked = await requestSeries(owner, dayCare(sitter.id, owner, { weekdays: [WED, FRI] }));
    if (!asked.ok) throw new Error(asked.refusal);
    // Before the series is accepted, another owner's day care takes Friday's place.
    const other = await ownerWithCard();
    const friday = await requestSeries(other, dayCare(sitter.id, other, { day: "2030-03-08", weekdays: [FRI] }));
    if (!friday.ok) throw new Error(friday.refusal);
    await actOnSeries(sitter, friday.series.id, { type: "accept" });
    await actOnSeries(sitter, asked.series.id, { type: "accept" });
    const byDay = new Map((await occurrencesOf(asked.series.id)).map((booking) => [booking.series_day, booking]));
    expect(byDay.get("2030-03-06")?.status).toBe("confirmed");
    expect(byDay.get("2030-03-08")).toMatchObject({ status: "cancelled", cancel_reason: "notFree" });
    expect(await noticesOf(owner.id)).toContain("notFree");
  });
});

it("its emails follow the person's choice for booking emails", async () => {
  clockTo(instantAt("Europe/Madrid", MONDAY, "09:00"), 0);
  const sitter = await walker();
  await db.updateTable("users").set({ email_bookings: 0 }).where("id", "=", sitter.id).execute();
  const owner = await ownerWithCard();
  await freeMorning(sitter, "2030-03-06");
  const asked = await requestSeries(owner, input(sitter.id, owner));
  expect(asked.ok).toBe(true);
  expect(await noticesOf(sitter.id)).toContain("series_requested");
  expect(await emailsTo(sitter.email)).toEqual([]);
  if (asked.ok) await actOnSeries(sitter, asked.series.id, { type: "accept" });
  expect((await emailsTo(owner.email)).map((email) => email.subject)).toContain(
    `${sitter.name} accepted your weekly care`,
  );
});
