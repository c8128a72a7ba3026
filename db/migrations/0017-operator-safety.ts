import { sql, type Kysely } from "kysely";
import { isPostgres, serialId } from "../engine";

/*
 * The operator role, suspensions, reports, blocks, hidden messages and reviews, and the audit log.
 * The audit log is append-only in the database itself: triggers refuse every UPDATE and DELETE, so
 * no code path (nor a hand-typed statement) can rewrite what an operator did.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("is_admin", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("users").addColumn("suspended_at", "text").execute();
  await db.schema.alterTable("users").addColumn("suspension_reason", "text").execute();

  // No foreign key on operator_id: a row must outlive its operator's account, and a cascade would be a DELETE.
  await db.schema
    .createTable("audit_log")
    .addColumn("id", ...serialId(db))
    .addColumn("operator_id", "text")
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("subject_type", "text", (c) => c.notNull())
    .addColumn("subject_id", "text", (c) => c.notNull())
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("details", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("audit_log_subject").on("audit_log").columns(["subject_type", "subject_id"]).execute();
  await db.schema.createIndex("audit_log_operator").on("audit_log").columns(["operator_id", "id"]).execute();
  if (isPostgres(db)) {
    await sql`create function audit_log_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'audit_log is append-only';
    end $$`.execute(db);
    await sql`create trigger audit_log_no_update before update on audit_log for each row execute function audit_log_append_only()`.execute(
      db,
    );
    await sql`create trigger audit_log_no_delete before delete on audit_log for each row execute function audit_log_append_only()`.execute(
      db,
    );
    // TRUNCATE skips row triggers: refuse it too.
    await sql`create trigger audit_log_no_truncate before truncate on audit_log for each statement execute function audit_log_append_only()`.execute(
      db,
    );
  } else {
    await sql`create trigger audit_log_no_update before update on audit_log begin select raise(abort, 'audit_log is append-only'); end`.execute(
      db,
    );
    await sql`create trigger audit_log_no_delete before delete on audit_log begin select raise(abort, 'audit_log is append-only'); end`.execute(
      db,
    );
  }

  await db.schema
    .createTable("reports")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("reporter_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("reported_user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("subject_type", "text", (c) =>
      c.notNull().check(sql`subject_type in ('profile', 'message', 'review', 'booking')`),
    )
    .addColumn("subject_id", "text", (c) => c.notNull())
    .addColumn("reason", "text", (c) =>
      c
        .notNull()
        .check(sql`reason in ('scam', 'inappropriate', 'harassment', 'unsafe-animals', 'fake-profile', 'other')`),
    )
    .addColumn("details", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("open")
        .check(sql`status in ('open', 'closed')`),
    )
    .addColumn("resolution", "text", (c) => c.check(sql`resolution in ('dismissed', 'hidden', 'warned', 'suspended')`))
    .addColumn("resolved_by", "text")
    .addColumn("resolved_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("reports_once", ["reporter_id", "subject_type", "subject_id"])
    .execute();
  await db.schema.createIndex("reports_queue").on("reports").columns(["status", "created_at"]).execute();
  await db.schema.createIndex("reports_reported").on("reports").columns(["reported_user_id", "created_at"]).execute();
  await db.schema.createIndex("reports_subject").on("reports").columns(["subject_type", "subject_id"]).execute();
  await db.schema.createIndex("reports_by_reporter").on("reports").columns(["reporter_id", "created_at"]).execute();

  await db.schema
    .createTable("blocks")
    .addColumn("blocker_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("blocked_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("blocks_pair", ["blocker_id", "blocked_id"])
    .addCheckConstraint("blocks_not_self", sql`blocker_id <> blocked_id`)
    .execute();
  await db.schema.createIndex("blocks_blocked").on("blocks").columns(["blocked_id", "blocker_id"]).execute();

  for (const table of ["messages", "reviews"]) {
    await db.schema.alterTable(table).addColumn("hidden_at", "text").execute();
    await db.schema.alterTable(table).addColumn("hidden_by", "text").execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["reviews", "messages"]) {
    await db.schema.alterTable(table).dropColumn("hidden_by").execute();
    await db.schema.alterTable(table).dropColumn("hidden_at").execute();
  }
  await db.schema.dropTable("blocks").execute();
  await db.schema.dropTable("reports").execute();
  await db.schema.dropTable("audit_log").execute();
  if (isPostgres(db)) await sql`drop function audit_log_append_only()`.execute(db);
  await db.schema.alterTable("users").dropColumn("suspension_reason").execute();
  await db.schema.alterTable("users").dropColumn("suspended_at").execute();
  await db.schema.alterTable("users").dropColumn("is_admin").execute();
}
