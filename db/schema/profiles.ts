// Written by features/profiles: the services a sitter offers.

/** A service a sitter offers besides pet sitting by the hour (migration 0040). */
export interface SitterServicesTable {
  sitter_id: string;
  service: Exclude<ServiceId, "hourly">;
  price_cents: number;
  /** 30 or 60 for a walk, 30 for a drop-in visit, null for day care and stays. */
  duration_minutes: number | null;
}

export type ServiceId = "hourly" | "walk" | "drop_in" | "day_care" | "house_sitting" | "boarding";

export interface ProfileTables {
  sitter_services: SitterServicesTable;
}
