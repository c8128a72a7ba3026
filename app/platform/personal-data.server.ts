// What a feature needs to export and erase a person's rows: the section every feature gives, the
// person being erased, and the SQL that takes their name, email and phone out of other people's text.
import { sql, type Kysely, type Transaction } from "kysely";
import type { Database } from "~db/schema";
import { containsText } from "~/platform/db.server";

/**
 * Everything held about a person, one section per area. Export and erasure both walk the list of
 * sections (`personalDataSections`, in the account feature), so an area that adds a table adds to
 * its own section (its `personal-data.server.ts`) and both stay complete. A section's `exportOf`
 * returns plain JSON (never a password hash, token, card number or provider secret); its `erase`
 * runs inside the erasure transaction and returns the media keys to delete once it commits.
 */
export interface PersonalDataSection {
  name: string;
  exportOf(userId: string, database: Kysely<Database>): Promise<unknown>;
  /** Files for the archive (media keys), named inside it. */
  filesOf?(userId: string, database: Kysely<Database>): Promise<{ key: string; name: string }[]>;
  erase(person: ErasedPerson, trx: Transaction<Database>): Promise<string[] | void>;
}

export interface ErasedPerson {
  id: string;
  name: string;
  email: string;
  phone: string;
}

/** Shown where an erased person's messages, reviews and bookings remain. */
export const DELETED_MEMBER = "Deleted member";

/** People the person dealt with, and the operators (told of their problems and posts): their notifications and emails may carry the person's name. */
export async function counterpartsOf(userId: string, trx: Kysely<Database>): Promise<string[]> {
  const rows = await sql<{ id: string }>`
    select owner_id as id from bookings where sitter_id = ${userId}
    union select sitter_id from bookings where owner_id = ${userId}
    union select user_a_id from conversations where user_b_id = ${userId}
    union select user_b_id from conversations where user_a_id = ${userId}
    union select user_a_id from matches where user_b_id = ${userId}
    union select user_b_id from matches where user_a_id = ${userId}
    union select reviewer_id from reviews where reviewed_id = ${userId}
    union select reviewed_id from reviews where reviewer_id = ${userId}
    union select owner_id from meet_greets where sitter_id = ${userId}
    union select sitter_id from meet_greets where owner_id = ${userId}
    union select owner_id from care_series where sitter_id = ${userId}
    union select sitter_id from care_series where owner_id = ${userId}
    union select id from users where is_admin = 1`.execute(trx);
  return rows.rows.map((row) => row.id).filter((id) => id !== userId);
}

/** The text with the person's name, email and phone taken out (SQLite's replace leaves text alone for an empty pattern). */
export function scrubbed(column: string, person: ErasedPerson, name = person.name) {
  return sql<string>`replace(replace(replace(${sql.ref(column)}, ${name}, ${DELETED_MEMBER}), ${person.email}, ''), ${person.phone}, '')`;
}

/** The same as `scrubbed`, on a text in hand: the name (or `name`) becomes "Deleted member", the address and phone go. */
export function scrubbedText(text: string, person: ErasedPerson, name = person.name): string {
  let result = text;
  for (const [found, put] of [
    [name, DELETED_MEMBER],
    [person.email, ""],
    [person.phone, ""],
  ] as const)
    if (found) result = result.split(found).join(put);
  return result;
}

export const mentions = (column: string, person: ErasedPerson, name = person.name) =>
  sql<boolean>`(${containsText(column, name)} or ${containsText(column, person.email)} or (${person.phone} != '' and ${containsText(column, person.phone)}))`;
