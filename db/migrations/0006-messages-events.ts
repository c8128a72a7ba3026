import { sql, type Kysely } from "kysely";
import { bigInteger, orderedPair, serialId, withoutRowid } from "../engine";

export async function up(db: Kysely<unknown>): Promise<void> {
  // One conversation per pair of people (smaller id first), opened by a match or a booking.
  await db.schema
    .createTable("conversations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_a_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("user_b_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_message_at", "text")
    .addCheckConstraint("conversations_ordered_pair", orderedPair(db))
    .addUniqueConstraint("conversations_pair", ["user_a_id", "user_b_id"])
    .execute();
  await db.schema.createIndex("conversations_user_b").on("conversations").column("user_b_id").execute();

  await db.schema
    .createTable("messages")
    .addColumn("id", ...serialId(db))
    .addColumn("conversation_id", "text", (c) => c.notNull().references("conversations.id").onDelete("cascade"))
    .addColumn("sender_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("media_key", "text")
    .addColumn("media_type", "text", (c) => c.check(sql`media_type in ('image', 'video')`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("messages_by_conversation").on("messages").columns(["conversation_id", "id"]).execute();

  // How far each person has read each conversation.
  await db.schema
    .createTable("conversation_reads")
    .addColumn("conversation_id", "text", (c) => c.notNull().references("conversations.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("last_read_message_id", bigInteger(db), (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("conversation_reads_pk", ["conversation_id", "user_id"])
    .$call(withoutRowid(db))
    .execute();

  // Everything pushed to a person's open tabs, kept for a while so a reconnecting tab gets what it missed.
  await db.schema
    .createTable("live_events")
    .addColumn("id", ...serialId(db))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("live_events_by_user").on("live_events").columns(["user_id", "id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["live_events", "conversation_reads", "messages", "conversations"])
    await db.schema.dropTable(table).execute();
}
