export {
  addSlot,
  deleteSlot,
  describeSlot,
  findOwnSlot,
  slotsPage,
  startTimesByDay,
  startTimesOn,
} from "./availability.server";
export type { SlotView } from "./availability.server";
export { bookSlot, coveringSlot, freeSlot } from "./booking-slots.server";
export { MONTHS_AHEAD, isFreeOnDays, monthCalendar, saveMonth, unavailableDays } from "./days-off.server";
export type { CalendarDay, SaveMonthResult } from "./days-off.server";
export { availabilitySection, daysNotFreeSection } from "./personal-data.server";
