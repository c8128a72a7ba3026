import { z } from "zod";
import { BIO_MAX, EXPERIENCE, HOURLY_RATE_DEFAULT, HOURLY_RATE_MAX, HOURLY_RATE_MIN, PET_TYPES } from "./options";

const optionalText = (max: number) => z.string().trim().max(max, "validation.tooLong").optional().default("");

/** The seed: name and phone are required, with one message for both. */
export const profileEditSchema = z.object({
  name: z.string({ required_error: "validation.nameAndPhone" }).trim().min(1, "validation.nameAndPhone").max(80, "validation.tooLong"),
  phone: z
    .string({ required_error: "validation.nameAndPhone" })
    .trim()
    .min(1, "validation.nameAndPhone")
    .max(24, "validation.tooLong")
    .regex(/^\+?[\d\s().-]{6,}$/, "validation.phoneInvalid"),
  city: optionalText(80),
  postalCode: optionalText(12),
  bio: optionalText(BIO_MAX),
  timeZone: z
    .string()
    .refine((zone) => isTimeZone(zone), "validation.timeZoneInvalid")
    .optional(),
});

/** An IANA time zone this runtime knows (e.g. Europe/Madrid). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return zone.includes("/") || zone === "UTC";
  } catch {
    return false;
  }
}

/**
 * Hourly rate: anything that is not a number falls back to 15 (as the seed does);
 * a number outside 5-100 is an error.
 */
export const hourlyRateSchema = z.preprocess(
  (value) => {
    const number = typeof value === "string" && value.trim() !== "" ? Number(value.replace(",", ".")) : NaN;
    return Number.isFinite(number) ? number : HOURLY_RATE_DEFAULT;
  },
  z.number().min(HOURLY_RATE_MIN, "validation.hourlyRateRange").max(HOURLY_RATE_MAX, "validation.hourlyRateRange"),
);

export const sitterSetupSchema = z.object({
  bio: z
    .string({ required_error: "validation.bioRequired" })
    .trim()
    .min(1, "validation.bioRequired")
    .max(BIO_MAX, "validation.bioTooLong"),
  hourlyRate: hourlyRateSchema,
  experience: z.array(z.enum(EXPERIENCE)).max(EXPERIENCE.length).optional().default([]),
  caresFor: z
    .array(z.enum(PET_TYPES), { required_error: "validation.caresForRequired" })
    .min(1, "validation.caresForRequired"),
});

export type SitterSetupInput = z.infer<typeof sitterSetupSchema>;
export type ProfileEditInput = z.infer<typeof profileEditSchema>;
