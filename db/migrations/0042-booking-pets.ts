import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // The pets of a booking, in the order the owner listed them. The name is kept so that a booking still says
  // whom it was for after the pet is deleted (its id then becomes null).
  await db.schema
    .createTable("booking_pets")
    .addColumn("booking_id", "text", (c) => c.notNull().references("bookings.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull().check(sql`position between 0 and 5`))
    .addColumn("pet_id", "text", (c) => c.references("pets.id").onDelete("set null"))
    .addColumn("pet_name", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("booking_pets_pk", ["booking_id", "position"])
    .execute();
  await db.schema.createIndex("booking_pets_pet").on("booking_pets").column("pet_id").execute();
  await sql`insert into booking_pets (booking_id, position, pet_id, pet_name)
            select id, 0, pet_id, pet_name from bookings`.execute(db);

  // The sitter's price per extra pet and unit when the booking was requested, so its price stays explainable.
  await db.schema
    .alterTable("bookings")
    .addColumn("extra_pet_cents", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`extra_pet_cents between 0 and 5000`),
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("bookings").dropColumn("extra_pet_cents").execute();
  await db.schema.dropTable("booking_pets").execute();
}
