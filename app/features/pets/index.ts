export { PET_TYPES } from "./options";
export { PetForm } from "./pet-form";
export { petCreateSchema, petSchema } from "./schema";
export type { PetCreateInput, PetInput } from "./schema";
