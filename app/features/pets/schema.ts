import { maxLength, optionalText, z } from "~/platform/validation";
import { BREEDS, ENERGY_LEVELS, PET_TYPES, TEMPERAMENTS } from "./options";

const petType = z.catch(z.enum(PET_TYPES), "dog");

export const petSchema = z
  .object({
    petType,
    name: z.optional(z.string().check(z.trim(), maxLength(60, "validation.tooLong"))),
    age: z.optional(z.string().check(z.trim(), maxLength(40, "validation.tooLong"))),
    breed: optionalText(40),
    notes: optionalText(1000),
    temperament: z._default(z.optional(z.array(z.enum(TEMPERAMENTS)).check(z.maxLength(TEMPERAMENTS.length))), []),
    specialNeeds: optionalText(500),
    energyLevel: z.catch(z.enum(ENERGY_LEVELS), "medium"),
  })
  // Required fields are checked here, not per field, so that all of them are reported at once
  // (a form-level check runs only when every field parsed) and the name's message can name the kind.
  .check(
    z.check(({ value: pet, issues }) => {
      const fail = (field: string, message: string) => issues.push({ code: "custom", path: [field], message, input: pet, continue: true });
      const failed = (field: string) => issues.some((issue) => issue.path?.[0] === field);
      if (!pet.name && !failed("name")) fail("name", `validation.petNameRequired.${pet.petType}`);
      if (!pet.age && !failed("age")) fail("age", "validation.petAgeRequired");
      if (pet.breed && !(BREEDS[pet.petType] as readonly string[]).includes(pet.breed)) fail("breed", "validation.breedInvalid");
    }),
  );

export type PetInput = z.infer<typeof petSchema> & { name: string; age: string };
