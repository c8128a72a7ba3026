export { createPet, PET_FORM, deletePet, findOwnPet, listPets, updatePet } from "./pets.server";
export type { PetView } from "./pets.server";
export { petsSection } from "./personal-data.server";
