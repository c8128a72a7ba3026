// Written by features/pets: the owners' pets.

import type { Generated, Selectable } from "kysely";
import type { IsoTime, PetType } from "./shared";

export type EnergyLevel = "low" | "medium" | "high";

export interface PetsTable {
  id: string;
  owner_id: string;
  name: string;
  pet_type: PetType;
  age: string;
  breed: Generated<string>;
  notes: Generated<string>;
  /** JSON array of temperament ids. */
  temperament: Generated<string>;
  special_needs: Generated<string>;
  energy_level: Generated<EnergyLevel>;
  created_at: IsoTime;
  updated_at: IsoTime;
}

export type Pet = Selectable<PetsTable>;

export interface PetTables {
  pets: PetsTable;
}
