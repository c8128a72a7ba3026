import { sql, type Kysely } from "kysely";
import { isPostgres } from "../engine";

// A viewer's swipes read from the index swipes_card alone on PostgreSQL too. Its last key is an
// expression, coalesce(target_pet_id, ''), and PostgreSQL reads an index alone only where every column
// a query names is in it as such: it fetched each swipe's row, for a viewer's list (3,000 swipes: 1.6
// ms instead of 0.6, and twice in a deck search from a city) and for every lookup of one card's swipe
// (it looked the swipe up in swipes_target instead, then tested the row). With target_pet_id included,
// both read the index alone. SQLite reads an expression's value from its index already.
async function rebuildCardIndex(db: Kysely<unknown>, includingPet: boolean): Promise<void> {
  if (!isPostgres(db)) return;
  const included = includingPet ? sql` include (target_pet_id)` : sql``;
  await sql`create unique index swipes_card_rebuilt on swipes (swiper_id, target_user_id, coalesce(target_pet_id, ''))${included}`.execute(
    db,
  );
  await sql`drop index swipes_card`.execute(db);
  await sql`alter index swipes_card_rebuilt rename to swipes_card`.execute(db);
}

export const up = (db: Kysely<unknown>) => rebuildCardIndex(db, true);
export const down = (db: Kysely<unknown>) => rebuildCardIndex(db, false);
