import { maxLength, optionalText, z } from "~/platform/validation";
import { PHOTOS_MAX } from "~/features/media";
import { BREEDS, ENERGY_LEVELS, PET_TYPES, TEMPERAMENTS } from "./options";

const petType = z.catch(z.enum(PET_TYPES), "dog");

const petFields = z.object({
  petType,
  name: z.optional(z.string().check(z.trim(), maxLength(60, "validation.tooLong"))),
  age: z.optional(z.string().check(z.trim(), maxLength(40, "validation.tooLong"))),
  breed: optionalText(40),
  notes: optionalText(1000),
  temperament: z._default(z.optional(z.array(z.enum(TEMPERAMENTS)).check(z.maxLength(TEMPERAMENTS.length))), []),
  specialNeeds: optionalText(500),
  energyLevel: z.catch(z.enum(ENERGY_LEVELS), "medium"),
});

type Issues = z.core.ParsePayload["issues"];

// Required fields are checked here, not per field, so that all of them are reported at once
// (a form-level check runs only when every field parsed) and the name's message can name the kind.
function requirePetFields(
  pet: z.output<typeof petFields>,
  issues: Issues,
  photos?: { chosen: number; pending: number },
) {
  const fail = (field: string, message: string) =>
    issues.push({ code: "custom", path: [field], message, input: pet, continue: true });
  const failed = (field: string) => issues.some((issue) => issue.path?.[0] === field);
  if (!pet.name && !failed("name")) fail("name", `validation.petNameRequired.${pet.petType}`);
  if (!pet.age && !failed("age")) fail("age", "validation.petAgeRequired");
  if (pet.breed && !(BREEDS[pet.petType] as readonly string[]).includes(pet.breed))
    fail("breed", "validation.breedInvalid");
  if (photos && photos.chosen + photos.pending === 0 && !failed("photos"))
    fail("photos", "validation.petPhotoRequired");
}

export const petSchema = petFields.check(z.check(({ value, issues }) => requirePetFields(value, issues)));

/** Creating a pet also needs a photo: chosen files (on the server, the files read from the upload) or kept pending uploads. */
export const petCreateSchema = z
  .extend(petFields, {
    photos: z._default(
      z.optional(z.array(z.file("profile:media.badRequest")).check(z.maxLength(PHOTOS_MAX, "profile:media.tooMany"))),
      [],
    ),
    pending: z._default(
      z.optional(
        z
          .array(z.string().check(z.maxLength(36, "profile:media.pendingGone")))
          .check(z.maxLength(PHOTOS_MAX, "profile:media.tooMany")),
      ),
      [],
    ),
  })
  .check(
    z.check(({ value, issues }) => {
      requirePetFields(value, issues, { chosen: value.photos.length, pending: value.pending.length });
      if (value.photos.length + value.pending.length > PHOTOS_MAX) {
        issues.push({
          code: "custom",
          path: ["photos"],
          message: "profile:media.tooMany",
          input: value,
          continue: true,
        });
      }
    }),
  );

export type PetInput = z.infer<typeof petSchema> & { name: string; age: string };
export type PetCreateInput = z.infer<typeof petCreateSchema> & { name: string; age: string };
