export { PET_TYPES } from "./options";
export { PetForm } from "./pet-form";
export { petSchema } from "./schema";
export type { PetInput } from "./schema";
