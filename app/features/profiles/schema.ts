import { maxLength, minLength, optionalText, z } from "~/platform/validation";
import { PET_TYPES } from "~/features/pets";
import {
  BIO_MAX,
  EXPERIENCE,
  HOURLY_RATE_DEFAULT,
  HOURLY_RATE_MAX,
  HOURLY_RATE_MIN,
  YEARS_EXPERIENCE_MAX,
} from "./options";
import { CANCELLATION_POLICIES } from "./cancellation-policies";

export const profileEditSchema = z.object({
  name: z
    .string("validation.nameAndPhone")
    .check(z.trim(), minLength(1, "validation.nameAndPhone"), maxLength(80, "validation.tooLong")),
  phone: z
    .string("validation.nameAndPhone")
    .check(
      z.trim(),
      minLength(1, "validation.nameAndPhone"),
      maxLength(24, "validation.tooLong"),
      z.regex(/^\+?[\d\s().-]{6,}$/, "validation.phoneInvalid"),
    ),
  city: optionalText(80),
  postalCode: optionalText(12),
  bio: optionalText(BIO_MAX),
  timeZone: z.optional(z.string().check(z.refine((zone) => isTimeZone(zone), "validation.timeZoneInvalid"))),
});

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return zone.includes("/") || zone === "UTC";
  } catch {
    return false;
  }
}

/** Not a number falls back to the default; out of range is an error. */
export const hourlyRateSchema = z.pipe(
  z.transform((value: unknown) => {
    const number = typeof value === "string" && value.trim() !== "" ? Number(value.replace(",", ".")) : NaN;
    return Number.isFinite(number) ? number : HOURLY_RATE_DEFAULT;
  }),
  z
    .number()
    .check(z.gte(HOURLY_RATE_MIN, "validation.hourlyRateRange"), z.lte(HOURLY_RATE_MAX, "validation.hourlyRateRange")),
);

// Left empty means "not said"; anything else must be a whole number in range.
const yearsExperienceSchema = z.pipe(
  z.transform((value: unknown) =>
    typeof value === "string" ? (value.trim() === "" ? undefined : Number(value.trim())) : value,
  ),
  z.optional(
    z.number("validation.yearsExperienceRange").check(
      z.refine((years) => Number.isInteger(years), "validation.yearsExperienceRange"),
      z.gte(0, "validation.yearsExperienceRange"),
      z.lte(YEARS_EXPERIENCE_MAX, "validation.yearsExperienceRange"),
    ),
  ),
);

/** What a sitter can change after setup, on /profile/edit; setup adds the bio. */
export const sitterDetailsSchema = z.object({
  hourlyRate: hourlyRateSchema,
  yearsExperience: yearsExperienceSchema,
  experience: z._default(z.optional(z.array(z.enum(EXPERIENCE)).check(z.maxLength(EXPERIENCE.length))), []),
  caresFor: z
    .array(z.enum(PET_TYPES), "validation.caresForRequired")
    .check(z.minLength(1, "validation.caresForRequired")),
  // Left out (an older form) keeps the default; anything but a known policy is refused.
  cancellationPolicy: z._default(
    z.optional(z.enum(CANCELLATION_POLICIES, "validation.cancellationPolicyInvalid")),
    "flexible",
  ),
});

export const sitterSetupSchema = z.extend(sitterDetailsSchema, {
  bio: z
    .string("validation.bioRequired")
    .check(z.trim(), minLength(1, "validation.bioRequired"), maxLength(BIO_MAX, "validation.bioTooLong")),
});

export type SitterDetailsInput = z.infer<typeof sitterDetailsSchema>;
export type SitterSetupInput = z.infer<typeof sitterSetupSchema>;
export type ProfileEditInput = z.infer<typeof profileEditSchema>;
