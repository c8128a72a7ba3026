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
import {
  EXTRA_PET_PRICE_MAX,
  EXTRA_PET_PRICE_MIN,
  MAX_PETS_MAX,
  MAX_PETS_MIN,
  PRICE_FIELDS,
  SERVICE_IDS,
  SERVICES,
  type ServiceId,
} from "./services";

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

// A number typed in a form: empty, not a number or not finite is "not given" (undefined).
const typedNumber = z.pipe(
  z.transform((value: unknown) => {
    if (typeof value !== "string" || value.trim() === "" || value.length > 12) return undefined;
    const number = Number(value.trim().replace(",", "."));
    return Number.isFinite(number) ? number : undefined;
  }),
  z.optional(z.number()),
);

const sitterDetailsShape = {
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
  // The forms send servicesShown: then at least one service must be ticked. Without it (older callers) the
  // services stay as they are.
  servicesShown: z.optional(z.string()),
  services: z.optional(
    z
      .array(z.enum(SERVICE_IDS as [ServiceId, ...ServiceId[]], "profile:validation.serviceUnknown"))
      .check(z.maxLength(SERVICE_IDS.length, "profile:validation.serviceUnknown")),
  ),
  walkPrice: typedNumber,
  dropInPrice: typedNumber,
  dayCarePrice: typedNumber,
  houseSittingPrice: typedNumber,
  boardingPrice: typedNumber,
  walkMinutes: z.optional(z.enum(["30", "60"], "profile:validation.walkMinutes")),
  extraPetPrice: typedNumber,
  maxPets: typedNumber,
};

type ShapeOutput = z.infer<z.ZodMiniObject<typeof sitterDetailsShape>>;

// Every price of a ticked service must be in its range; a price for a service not ticked is ignored.
const servicesCheck = z.check<ShapeOutput>((ctx) => {
  const value = ctx.value;
  const issue = (path: string, message: string) =>
    ctx.issues.push({ code: "custom", message, path: [path], input: value[path as keyof ShapeOutput] });
  const ticked = value.services ?? [];
  if (value.servicesShown !== undefined && ticked.length === 0)
    issue("services", "profile:validation.servicesRequired");
  for (const terms of SERVICES) {
    if (terms.id === "hourly" || !ticked.includes(terms.id)) continue;
    const field = PRICE_FIELDS[terms.id];
    const price = value[field];
    if (price === undefined || price < terms.minPrice || price > terms.maxPrice)
      issue(field, `profile:validation.price.${terms.unit}`);
  }
  if (value.servicesShown === undefined) return;
  const extra = value.extraPetPrice ?? 0;
  if (extra < EXTRA_PET_PRICE_MIN || extra > EXTRA_PET_PRICE_MAX)
    issue("extraPetPrice", "profile:validation.extraPetPrice");
  const most = value.maxPets ?? MAX_PETS_MIN;
  if (!Number.isInteger(most) || most < MAX_PETS_MIN || most > MAX_PETS_MAX)
    issue("maxPets", "profile:validation.maxPets");
});

const sitterDetailsObject = z.object(sitterDetailsShape);

/** What a sitter can change after setup, on /profile/edit; setup adds the bio. */
export const sitterDetailsSchema = sitterDetailsObject.check(servicesCheck);

export const sitterSetupSchema = z
  .extend(sitterDetailsObject, {
    bio: z
      .string("validation.bioRequired")
      .check(z.trim(), minLength(1, "validation.bioRequired"), maxLength(BIO_MAX, "validation.bioTooLong")),
  })
  .check(servicesCheck);

export type SitterDetailsInput = z.infer<typeof sitterDetailsSchema>;
export type SitterSetupInput = z.infer<typeof sitterSetupSchema>;
export type ProfileEditInput = z.infer<typeof profileEditSchema>;
