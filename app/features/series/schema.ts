import { maxLength, minLength, z } from "~/platform/validation";

const day = z.string("series:errors.dayRequired").check(z.regex(/^\d{4}-\d{2}-\d{2}$/, "series:errors.dayRequired"));
const time = z
  .string("series:errors.timeRequired")
  .check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, "series:errors.timeRequired"));

/** Ticked weekdays, 1 (Monday) to 7: at least one. */
export const weekdaysField = z
  .array(z.coerce.number<number>().check(z.refine(Number.isInteger), z.gte(1), z.lte(7)), "series:errors.noWeekday")
  .check(z.minLength(1, "series:errors.noWeekday"), z.maxLength(7, "series:errors.noWeekday"));

/** The request page's weekly part: the days and, optionally, the last date (the first date and time are the page's). */
export const weeklyFields = {
  weekdays: weekdaysField,
  lastDay: z.optional(day),
};

/** New days or a new time from a date on. */
export const changeSchema = z.object({
  intent: z.literal("propose-change"),
  fromDay: day,
  weekdays: weekdaysField,
  startTime: time,
});

export const skipSchema = z.object({
  intent: z.literal("skip"),
  day: day.check(minLength(10), maxLength(10)),
});
