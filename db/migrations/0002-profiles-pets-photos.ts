import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("hourly_rate_cents", "integer").execute();
  await db.schema
    .alterTable("users")
    .addColumn("experience", "text", (c) => c.notNull().defaultTo("[]"))
    .execute();
  await db.schema
    .alterTable("users")
    .addColumn("cares_for", "text", (c) => c.notNull().defaultTo("[]"))
    .execute();
  // A "both" user acts as one of their roles at a time (the Sitter/Owner toggle on the profile).
  await db.schema
    .alterTable("users")
    .addColumn("acting_role", "text", (c) => c.check(sql`acting_role in ('owner', 'sitter')`))
    .execute();

  await db.schema
    .createTable("pets")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("owner_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("pet_type", "text", (c) => c.notNull().check(sql`pet_type in ('dog', 'cat')`))
    .addColumn("age", "text", (c) => c.notNull())
    .addColumn("breed", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("notes", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("temperament", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("special_needs", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("energy_level", "text", (c) =>
      c
        .notNull()
        .defaultTo("medium")
        .check(sql`energy_level in ('low', 'medium', 'high')`),
    )
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("pets_owner_id").on("pets").columns(["owner_id", "created_at"]).execute();

  // A photo belongs to a user's profile (pet_id null) or to one of their pets; position 0 is the main one.
  await db.schema
    .createTable("photos")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("pet_id", "text", (c) => c.references("pets.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("card_key", "text", (c) => c.notNull())
    .addColumn("full_key", "text", (c) => c.notNull())
    .addColumn("width", "integer", (c) => c.notNull())
    .addColumn("height", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("photos_owner").on("photos").columns(["user_id", "pet_id", "position"]).execute();
  await db.schema.createIndex("photos_pet").on("photos").columns(["pet_id", "position"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("photos").execute();
  await db.schema.dropTable("pets").execute();
  for (const column of ["acting_role", "cares_for", "experience", "hourly_rate_cents"]) {
    await db.schema.alterTable("users").dropColumn(column).execute();
  }
}
