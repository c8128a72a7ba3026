import { z } from "~/platform/validation";
import { CARE_FIELD_LIMITS, CARE_LINE_MAX_CHARS, CARE_LINES_MAX } from "./limits";
import { careLines } from "./care-lines";

export { CARE_FIELD_LIMITS, CARE_LINE_MAX_CHARS, CARE_LINES_MAX };

const text = (max: number) =>
  z._default(z.optional(z.string().check(z.trim(), z.maxLength(max, "care:errors.tooLong"))), "");

const PHONE = /^[+()\d\s./-]*$/;
const phone = z._default(
  z.optional(
    z.string().check(
      z.trim(),
      z.maxLength(CARE_FIELD_LIMITS.vetPhone, "care:errors.tooLong"),
      z.refine((value) => PHONE.test(value), "care:errors.phone"),
    ),
  ),
  "",
);

/** One feeding, dose or walk per line: each line becomes an item of the visit's checklist. */
const lines = z._default(
  z.optional(
    z.string().check(
      z.trim(),
      z.maxLength(CARE_LINES_MAX * (CARE_LINE_MAX_CHARS + 1), "care:errors.tooLong"),
      z.refine((value) => careLines(value).length <= CARE_LINES_MAX, "care:errors.tooManyLines"),
      z.refine(
        (value) => careLines(value).every((line) => line.length <= CARE_LINE_MAX_CHARS),
        "care:errors.lineTooLong",
      ),
    ),
  ),
  "",
);

export const carePlanSchema = z.object({
  feeding: lines,
  medication: lines,
  walks: lines,
  houseNotes: text(CARE_FIELD_LIMITS.houseNotes),
  vetName: text(CARE_FIELD_LIMITS.vetName),
  vetPhone: phone,
  vetAddress: text(CARE_FIELD_LIMITS.vetAddress),
  emergencyName: text(CARE_FIELD_LIMITS.emergencyName),
  emergencyPhone: phone,
});

export type CarePlanInput = z.infer<typeof carePlanSchema>;

export { careLines };
