import { z } from "zod";
import { BREEDS, ENERGY_LEVELS, PET_TYPES, TEMPERAMENTS } from "~/features/profiles/options";

const petType = z.enum(PET_TYPES).catch("dog");

export const petSchema = z
  .object({
    petType,
    name: z.string().trim().max(60, "validation.tooLong").optional(),
    age: z.string().trim().max(40, "validation.tooLong").optional(),
    breed: z.string().trim().max(40).optional().default(""),
    notes: z.string().trim().max(1000, "validation.tooLong").optional().default(""),
    temperament: z.array(z.enum(TEMPERAMENTS)).max(TEMPERAMENTS.length).optional().default([]),
    specialNeeds: z.string().trim().max(500, "validation.tooLong").optional().default(""),
    energyLevel: z.enum(ENERGY_LEVELS).catch("medium"),
  })
  // Required fields are checked here, not per field, so that all of them are reported at once
  // (zod runs a refinement only when every field parsed) and the name's message can name the kind.
  .superRefine((pet, ctx) => {
    if (!pet.name) ctx.addIssue({ code: "custom", path: ["name"], message: `validation.petNameRequired.${pet.petType}` });
    if (!pet.age) ctx.addIssue({ code: "custom", path: ["age"], message: "validation.petAgeRequired" });
    if (pet.breed && !(BREEDS[pet.petType] as readonly string[]).includes(pet.breed)) {
      ctx.addIssue({ code: "custom", path: ["breed"], message: "validation.breedInvalid" });
    }
  });

export type PetInput = z.infer<typeof petSchema> & { name: string; age: string };
