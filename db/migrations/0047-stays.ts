import { sql, type Kysely } from "kysely";
import { isPostgres } from "../engine";

/*
 * Stays: a booking of house sitting, boarding or day care counts nights or days where pet sitting by the
 * hour counts hours, and a stay that outlasts a card hold is charged at its start and paid out to the sitter
 * at release.
 *
 * - bookings.hours becomes "how many units the price counts": 1-6 hours for 'hourly', 1-30 nights or days
 *   for a stay (the check that allowed only 1-6 is replaced).
 * - payment_mode: 'hold' (authorised, captured at release) or 'charge' (charged at the start, paid out at
 *   release). With 'charge', hold_ref is the charge and payout_ref the sitter's payout.
 */

const HOURS_CHECK =
  "(service_type = 'hourly' and hours between 1 and 6) or (service_type <> 'hourly' and hours between 1 and 30)";

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table bookings drop constraint if exists bookings_hours_check`.execute(db);
    await sql`alter table bookings add constraint bookings_units check (${sql.raw(HOURS_CHECK)})`.execute(db);
  } else {
    await rebuildWithCheck(db);
  }
  await db.schema
    .alterTable("bookings")
    .addColumn("payment_mode", "text", (c) =>
      c
        .notNull()
        .defaultTo("hold")
        .check(sql`payment_mode in ('hold', 'charge')`),
    )
    .execute();
  await db.schema.alterTable("bookings").addColumn("payout_ref", "text").execute();
  // The stays overlapping a day, for the capacity check when a sitter accepts.
  await db.schema
    .createIndex("bookings_stays_by_sitter")
    .on("bookings")
    .columns(["sitter_id", "end_at", "start_at"])
    .where(sql.ref("service_type"), "<>", "hourly")
    .execute();
}

/**
 * SQLite cannot change a table's check: the table is made again under its own definition with the new check,
 * as SQLite's documentation describes (foreign keys off meanwhile, so the rows that point at bookings stay).
 */
async function rebuildWithCheck(db: Kysely<unknown>) {
  const { rows } = await sql<{ type: string; name: string; sql: string }>`
    select type, name, sql from sqlite_master where tbl_name = 'bookings' and sql is not null`.execute(db);
  const table = rows.find((row) => row.type === "table")!;
  const definition = table.sql.replace(/check \(hours between 1 and 6\)/i, `check (${HOURS_CHECK})`);
  if (definition === table.sql) throw new Error("bookings: the hours check was not found");
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`begin immediate`.execute(db);
    await sql.raw(definition.replace(/^create table "?bookings"?/i, 'create table "bookings_rebuilt"')).execute(db);
    await sql`insert into bookings_rebuilt select * from bookings`.execute(db);
    await sql`drop table bookings`.execute(db);
    await sql`alter table bookings_rebuilt rename to bookings`.execute(db);
    for (const index of rows.filter((row) => row.type === "index")) await sql.raw(index.sql).execute(db);
    const { rows: broken } = await sql`pragma foreign_key_check`.execute(db);
    if (broken.length > 0) throw new Error("bookings: foreign keys broken by the rebuild");
    await sql`commit`.execute(db);
  } catch (error) {
    await sql`rollback`.execute(db);
    throw error;
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("bookings_stays_by_sitter").execute();
  await db.schema.alterTable("bookings").dropColumn("payout_ref").execute();
  await db.schema.alterTable("bookings").dropColumn("payment_mode").execute();
}
