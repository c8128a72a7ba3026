import { sql, type Kysely } from "kysely";
import { orderedPair, serialId } from "../engine";

export async function up(db: Kysely<unknown>): Promise<void> {
  // A like or pass. Owners swipe sitters (pet_id null); sitters swipe pets, which counts toward the pet's owner.
  await db.schema
    .createTable("swipes")
    .addColumn("id", ...serialId(db))
    .addColumn("swiper_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("target_user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("target_pet_id", "text", (c) => c.references("pets.id").onDelete("cascade"))
    .addColumn("decision", "text", (c) => c.notNull().check(sql`decision in ('like', 'pass')`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  // One swipe per card; SQLite treats NULLs as distinct, so the pet is compared through coalesce.
  await sql`create unique index swipes_card on swipes (swiper_id, target_user_id, coalesce(target_pet_id, ''))`.execute(
    db,
  );
  await db.schema
    .createIndex("swipes_target")
    .on("swipes")
    .columns(["target_user_id", "swiper_id", "decision"])
    .execute();
  await db.schema
    .createIndex("swipes_likes_by_day")
    .on("swipes")
    .columns(["swiper_id", "decision", "created_at"])
    .execute();

  // One match per pair of people, stored with the smaller id first so the pair is unique whatever the order.
  await db.schema
    .createTable("matches")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_a_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("user_b_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addCheckConstraint("matches_ordered_pair", orderedPair(db))
    .addUniqueConstraint("matches_pair", ["user_a_id", "user_b_id"])
    .execute();
  await db.schema.createIndex("matches_user_b").on("matches").column("user_b_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("matches").execute();
  await db.schema.dropTable("swipes").execute();
}
