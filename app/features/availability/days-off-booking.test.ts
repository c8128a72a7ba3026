import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { resetClockAfterEach } from "~/testing/clock";
import { ownerWithPet, requestInput, sitterWithSlot } from "~/testing/bookings";
import { requestBooking } from "~/features/bookings/index.server";
import { startTimesOn } from "./availability.server";

resetClockAfterEach();

describe("hourly booking on a day the sitter is not free", () => {
  it("a day marked not free offers no start times and refuses an hourly request", async () => {
    const sitter = await sitterWithSlot({ daysAhead: 2 });
    const owner = await ownerWithPet();
    expect(await startTimesOn(sitter.id, sitter.time_zone, sitter.day)).not.toHaveLength(0);
    await db.insertInto("sitter_days_off").values({ sitter_id: sitter.id, day: sitter.day }).execute();
    expect(await startTimesOn(sitter.id, sitter.time_zone, sitter.day)).toEqual([]);
    expect(await requestBooking(owner, requestInput(sitter.id, owner.petId, sitter.day, "10:00", 2))).toEqual({
      status: "refused",
      reason: "dayNotFree",
    });
    expect(await db.selectFrom("bookings").select("id").where("sitter_id", "=", sitter.id).execute()).toEqual([]);
  });
});
