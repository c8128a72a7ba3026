// Written by features/media: profile and pet photos, and photos uploaded before their form is saved.

import type { Selectable } from "kysely";
import type { IsoTime } from "./shared";

export interface PhotosTable {
  id: string;
  user_id: string;
  pet_id: string | null;
  position: number;
  card_key: string;
  full_key: string;
  width: number;
  height: number;
  created_at: IsoTime;
}

export interface PendingUploadsTable {
  id: string;
  user_id: string;
  /** Which form the photos were sent with, e.g. "pet". */
  form: string;
  card_key: string;
  full_key: string;
  width: number;
  height: number;
  created_at: IsoTime;
}

export type Photo = Selectable<PhotosTable>;
export type PendingUpload = Selectable<PendingUploadsTable>;

export interface MediaTables {
  photos: PhotosTable;
  pending_uploads: PendingUploadsTable;
}
