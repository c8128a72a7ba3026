// Written by features/care: care plans (migration 0021).

import type { Selectable } from "kysely";
import type { IsoTime } from "./shared";

export interface CarePlansTable {
  pet_id: string;
  /** One feeding, dose or walk per line. */
  feeding: string;
  medication: string;
  walks: string;
  house_notes: string;
  vet_name: string;
  vet_phone: string;
  vet_address: string;
  emergency_name: string;
  emergency_phone: string;
  updated_at: IsoTime;
}

export type CarePlan = Selectable<CarePlansTable>;

export interface CareTables {
  care_plans: CarePlansTable;
}
