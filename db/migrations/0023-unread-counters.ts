import { sql, type Kysely } from "kysely";
import { isPostgres } from "../engine";

export async function up(db: Kysely<unknown>): Promise<void> {
  // Each member's unread messages per conversation, kept up to date when a message is sent or read,
  // so that the count every signed-in page shows is a sum over a few rows instead of a count of messages.
  await db.schema
    .alterTable("conversation_reads")
    .addColumn("unread_count", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  // Every member gets a row (until now a member who had neither read nor written had none).
  const members = sql`select id, user_a_id, 0 from conversations union all select id, user_b_id, 0 from conversations`;
  if (isPostgres(db)) {
    await sql`insert into conversation_reads (conversation_id, user_id, last_read_message_id) ${members} on conflict do nothing`.execute(
      db,
    );
  } else {
    await sql`insert or ignore into conversation_reads (conversation_id, user_id, last_read_message_id)
    ${members}`.execute(db);
  }
  await sql`update conversation_reads set unread_count = (
    select count(*) from messages m
    where m.conversation_id = conversation_reads.conversation_id and m.sender_id != conversation_reads.user_id and m.id > conversation_reads.last_read_message_id
  )`.execute(db);
  await sql`create index conversation_reads_unread on conversation_reads (user_id, unread_count) where unread_count > 0`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("conversation_reads_unread").execute();
  await db.schema.alterTable("conversation_reads").dropColumn("unread_count").execute();
}
