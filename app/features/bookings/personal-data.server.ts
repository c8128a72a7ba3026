// The bookings' part of a person's data export and erasure: their bookings on either side, with the
// money and the pets of each, and the booking history's reasons, kept without their details.
import { mentions, scrubbed, type PersonalDataSection } from "~/platform/personal-data.server";
import { bookedPetNames } from "./booked-pets.server";
import { bookingMoney } from "./money";

export const bookingsSection: PersonalDataSection = {
  name: "bookings",
  async exportOf(userId, database) {
    const bookings = await database
      .selectFrom("bookings")
      .select([
        "id",
        "owner_id",
        "sitter_id",
        "pet_id",
        "pet_name",
        "service_type",
        "location",
        "notes",
        "start_at",
        "end_at",
        "hours",
        "hourly_rate_cents",
        "extra_pet_cents",
        "subtotal_cents",
        "fee_cents",
        "total_cents",
        "status",
        "payment_status",
        "payment_provider",
        "card_label",
        "cancel_reason",
        "cancelled_by",
        "confirmed_at",
        "completed_at",
        "released_at",
        "created_at",
        "updated_at",
        "payment_task",
        "capture_cents",
        "refund_due_cents",
        "refunded_cents",
      ])
      .where((eb) => eb.or([eb("owner_id", "=", userId), eb("sitter_id", "=", userId)]))
      .orderBy("start_at")
      .execute();
    const petsOf = await bookedPetNames(
      bookings.map((booking) => booking.id),
      database,
    );
    // What was paid, refunded and kept, as every page shows it; every pet booked, in order.
    return bookings.map((booking) => {
      const money = bookingMoney(booking);
      return {
        ...booking,
        pets: petsOf.get(booking.id) ?? [booking.pet_name],
        money: {
          paid_cents: money.paidCents,
          refunded_cents: money.refundedCents,
          sitter_keeps_cents: money.sitterKeepsCents,
          platform_fee_cents: money.platformFeeCents,
          pending: money.pending,
        },
      };
    });
  },
  // Kept for accounting, without what the owner wrote about their home.
  async erase(person, trx) {
    await trx.updateTable("bookings").set({ location: "", notes: "" }).where("owner_id", "=", person.id).execute();
    // The booking history stays too, without the person's details in the reasons it carries.
    const bookings = trx
      .selectFrom("bookings")
      .select("id")
      .where((eb) => eb.or([eb("owner_id", "=", person.id), eb("sitter_id", "=", person.id)]));
    await trx
      .updateTable("booking_history")
      .set({ detail: scrubbed("detail", person) })
      .where("booking_id", "in", bookings)
      .where(mentions("detail", person))
      .execute();
  },
};
