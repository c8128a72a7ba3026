import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // The services a sitter offers besides pet sitting by the hour (whose price stays users.hourly_rate_cents,
  // the specification's booking), one row and one price each. A walk lasts the 30 or 60 minutes the sitter
  // chose; a drop-in visit 30 minutes; the others are priced per day or night and have no duration.
  await db.schema
    .createTable("sitter_services")
    .addColumn("sitter_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("service", "text", (c) =>
      c.notNull().check(sql`service in ('walk', 'drop_in', 'day_care', 'house_sitting', 'boarding')`),
    )
    .addColumn("price_cents", "integer", (c) => c.notNull().check(sql`price_cents between 500 and 30000`))
    .addColumn("duration_minutes", "integer", (c) =>
      c.check(sql`duration_minutes is null or duration_minutes in (30, 60)`),
    )
    .addPrimaryKeyConstraint("sitter_services_pk", ["sitter_id", "service"])
    .execute();
  await db.schema
    .createIndex("sitter_services_service")
    .on("sitter_services")
    .columns(["service", "price_cents"])
    .execute();

  // Every service can take several of the owner's pets, up to the sitter's limit; each pet after the first
  // costs the sitter's extra-pet price per unit (hour, walk, visit, day or night).
  await db.schema
    .alterTable("users")
    .addColumn("max_pets", "integer", (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`max_pets between 1 and 6`),
    )
    .execute();
  await db.schema
    .alterTable("users")
    .addColumn("extra_pet_cents", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`extra_pet_cents between 0 and 5000`),
    )
    .execute();

  // The specification's booking was stored as service 'walk'; it is pet sitting by the hour, and 'walk' now
  // names a dog walk.
  await sql`update bookings set service_type = 'hourly' where service_type = 'walk'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update bookings set service_type = 'walk' where service_type = 'hourly'`.execute(db);
  await db.schema.alterTable("users").dropColumn("extra_pet_cents").execute();
  await db.schema.alterTable("users").dropColumn("max_pets").execute();
  await db.schema.dropTable("sitter_services").execute();
}
