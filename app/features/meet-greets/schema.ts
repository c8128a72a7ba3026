import { maxLength, minLength, optionalText, uuid, z } from "~/platform/validation";
import { PLACE_NOTE_MAX } from "./machine";

const day = z
  .string("meetGreets:errors.dateRequired")
  .check(z.regex(/^\d{4}-\d{2}-\d{2}$/, "meetGreets:errors.dateRequired"));
const time = z
  .string("meetGreets:errors.timeRequired")
  .check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, "meetGreets:errors.timeRequired"));
const place = z.enum(["owners_home", "sitters_home", "elsewhere", "video"], "meetGreets:errors.placeRequired");

/** An owner's proposal: a day and a time in the sitter's time zone, and where. */
export const proposalSchema = z.object({
  id: uuid("meetGreets:errors.stale"),
  sitterId: z.string().check(minLength(1), maxLength(64)),
  day,
  time,
  place,
  placeNote: optionalText(PLACE_NOTE_MAX),
});

/** Another time (and place) offered in answer. */
export const moveSchema = z.object({ day, time, place, placeNote: optionalText(PLACE_NOTE_MAX) });
