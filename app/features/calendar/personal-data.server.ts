// The calendar's part of a person's data export and erasure: their calendar address.
import type { PersonalDataSection } from "~/platform/personal-data.server";
import { exportCalendarFeed, stopCalendarFeed } from "./feed.server";

export const calendarAddressSection: PersonalDataSection = {
  // Whether the person has a calendar address, and since when; the address itself is a secret.
  name: "calendar-address",
  exportOf: (userId, database) => exportCalendarFeed(userId, database),
  async erase(person, trx) {
    await stopCalendarFeed(person.id, trx);
  },
};
