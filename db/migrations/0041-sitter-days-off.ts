import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // The whole days a sitter is not free, as calendar days in the sitter's time zone: every day is free
  // unless a row says otherwise, so a new sitter needs no rows at all.
  await db.schema
    .createTable("sitter_days_off")
    .addColumn("sitter_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("day", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("sitter_days_off_pk", ["sitter_id", "day"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("sitter_days_off").execute();
}
