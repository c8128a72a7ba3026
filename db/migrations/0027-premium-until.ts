import { sql, type Kysely } from "kysely";
import { isPostgres } from "../engine";

// users.premium_until: until when a person's live subscription makes them premium ('9999-…' while it is
// past due, its period's end while active, null otherwise), kept by triggers on every write to
// subscriptions whatever code makes it. The deck reads it from its place indexes, so boosting premium
// cards costs no lookup per candidate.

const FOREVER = "9999-12-31T23:59:59.999Z";
const premiumUntil = (
  userId: ReturnType<typeof sql>,
) => sql`(select max(case when s.status = 'past_due' then ${sql.lit(FOREVER)} else s.current_period_end end)
  from subscriptions s where s.user_id = ${userId} and s.ended_at is null and s.status in ('active', 'past_due'))`;

const SITTERS = sql<boolean>`role in ('sitter', 'both') and hourly_rate_cents is not null and email_verified_at is not null and suspended_at is null and deleted_at is null`;
const OWNERS = sql<boolean>`role in ('owner', 'both') and email_verified_at is not null and suspended_at is null and deleted_at is null`;
const ROW = sql`floor(latitude * 10)`;
const PERSON = ["latitude", "role", "email_verified_at", "suspended_at", "deleted_at"];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("premium_until", "text").execute();
  await sql`update users set premium_until = ${premiumUntil(sql`users.id`)}`.execute(db);

  if (isPostgres(db)) {
    await sql`create function subscriptions_premium_until() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' then
        update users set premium_until = ${premiumUntil(sql`old.user_id`)} where id = old.user_id;
      end if;
      if tg_op <> 'DELETE' then
        update users set premium_until = ${premiumUntil(sql`new.user_id`)} where id = new.user_id;
      end if;
      return null;
    end $$`.execute(db);
    await sql`create trigger subscriptions_premium_until after insert or update or delete on subscriptions
      for each row execute function subscriptions_premium_until()`.execute(db);
  } else {
    await sql`create trigger subscriptions_premium_insert after insert on subscriptions begin
      update users set premium_until = ${premiumUntil(sql`new.user_id`)} where id = new.user_id; end`.execute(db);
    await sql`create trigger subscriptions_premium_update after update on subscriptions begin
      update users set premium_until = ${premiumUntil(sql`old.user_id`)} where id = old.user_id;
      update users set premium_until = ${premiumUntil(sql`new.user_id`)} where id = new.user_id; end`.execute(db);
    await sql`create trigger subscriptions_premium_delete after delete on subscriptions begin
      update users set premium_until = ${premiumUntil(sql`old.user_id`)} where id = old.user_id; end`.execute(db);
  }

  // The place indexes again, with premium_until: a circle's candidates are ranked premium first from the index alone.
  await db.schema.dropIndex("users_deck_sitters_near").execute();
  await db.schema.dropIndex("users_deck_owners_near").execute();
  await db.schema
    .createIndex("users_deck_sitters_near")
    .on("users")
    .expression(ROW)
    .columns([
      "longitude",
      "cares_for_mask",
      "rating_average",
      "review_count",
      "hourly_rate_cents",
      "created_at",
      "id",
      "premium_until",
      ...PERSON,
    ])
    .where(SITTERS)
    .execute();
  await db.schema
    .createIndex("users_deck_owners_near")
    .on("users")
    .expression(ROW)
    .columns(["longitude", "id", "premium_until", ...PERSON])
    .where(OWNERS)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("users_deck_sitters_near").execute();
  await db.schema.dropIndex("users_deck_owners_near").execute();
  if (isPostgres(db)) {
    await sql`drop trigger subscriptions_premium_until on subscriptions`.execute(db);
    await sql`drop function subscriptions_premium_until()`.execute(db);
  } else {
    for (const trigger of [
      "subscriptions_premium_insert",
      "subscriptions_premium_update",
      "subscriptions_premium_delete",
    ])
      await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
  }
  await db.schema.alterTable("users").dropColumn("premium_until").execute();
  await db.schema
    .createIndex("users_deck_sitters_near")
    .on("users")
    .expression(ROW)
    .columns([
      "longitude",
      "cares_for_mask",
      "rating_average",
      "review_count",
      "hourly_rate_cents",
      "created_at",
      "id",
      ...PERSON,
    ])
    .where(SITTERS)
    .execute();
  await db.schema
    .createIndex("users_deck_owners_near")
    .on("users")
    .expression(ROW)
    .columns(["longitude", "id", ...PERSON])
    .where(OWNERS)
    .execute();
}
