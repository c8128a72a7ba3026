// Written by features/account: email address changes and data downloads.

import type { IsoTime } from "./shared";

export interface EmailChangesTable {
  token_hash: string;
  user_id: string;
  new_email: string;
  expires_at: IsoTime;
  used_at: IsoTime | null;
  created_at: IsoTime;
}

export interface DataExportsTable {
  id: string;
  user_id: string;
  created_at: IsoTime;
  expires_at: IsoTime;
}

export interface AccountTables {
  email_changes: EmailChangesTable;
  data_exports: DataExportsTable;
}
