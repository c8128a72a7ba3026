import type { Kysely } from "kysely";

// When a person accepted the terms and the privacy policy (at sign-up). Older accounts keep null: not recorded.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("terms_accepted_at", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("terms_accepted_at").execute();
}
