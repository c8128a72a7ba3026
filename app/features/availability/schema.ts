import { z } from "~/platform/validation";
import { DEFAULT_SLOT, PRESET_NAMES, PRESETS, type PresetName, type SlotTimes } from "./presets";

export { DEFAULT_SLOT, PRESET_NAMES, PRESETS, type PresetName, type SlotTimes };

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

export function isCalendarDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

export const isTime = (value: string) => TIME.test(value);

/** A preset button sends its own times, so it works without JavaScript; conform reads no HTML constraints from a schema that ends in a transform. */
export const addSlotFields = z
  .object({
    day: z.string("availability:errors.dayInvalid").check(z.refine(isCalendarDay, "availability:errors.dayInvalid")),
    preset: z.optional(z.enum(PRESET_NAMES, "validation.choice")),
    startTime: z.optional(z.string()),
    endTime: z.optional(z.string()),
  })
  .check(
    z.check(({ value: { preset, startTime, endTime }, issues }) => {
      if (preset) return;
      const check = (field: "startTime" | "endTime", value: string | undefined) => {
        const message =
          value === undefined ? "validation.required" : isTime(value) ? null : "availability:errors.timeInvalid";
        if (message) issues.push({ code: "custom", path: [field], message, input: value, continue: true });
        return message === null;
      };
      const validStart = check("startTime", startTime);
      if (check("endTime", endTime) && validStart && endTime! <= startTime!) {
        issues.push({
          code: "custom",
          path: ["endTime"],
          message: "availability:errors.endBeforeStart",
          input: endTime,
          continue: true,
        });
      }
    }),
  );

export const addSlotSchema = z.pipe(
  addSlotFields,
  z.transform(({ day, preset, startTime = "", endTime = "" }) =>
    preset ? { day, startTime: PRESETS[preset].start, endTime: PRESETS[preset].end } : { day, startTime, endTime },
  ),
);

export type AddSlotInput = z.output<typeof addSlotSchema>;
