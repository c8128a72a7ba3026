import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  // Likes given on the person's current local day, counted apart from the swipes themselves, so
  // that 'Start Over' (which forgets swipes) or changing one's mind does not give likes back.
  await db.schema.alterTable("users").addColumn("likes_day", "text").execute();
  await db.schema
    .alterTable("users")
    .addColumn("likes_on_day", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("likes_on_day").execute();
  await db.schema.alterTable("users").dropColumn("likes_day").execute();
}
