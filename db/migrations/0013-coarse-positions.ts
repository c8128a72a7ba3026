import type { Kysely } from "kysely";
import { storedPosition } from "~/features/discovery/geo.server";

interface Positions {
  users: { id: string; latitude: number | null; longitude: number | null };
}

export async function up(untyped: Kysely<unknown>): Promise<void> {
  // Every position already stored moves to the centre of its ~1 km cell, as new ones are written
  // (geo.server's storedPosition); unit_x/y/z are generated from them and follow by themselves.
  const db = untyped as unknown as Kysely<Positions>;
  const rows = await db.selectFrom("users").select(["id", "latitude", "longitude"]).where("latitude", "is not", null).where("longitude", "is not", null).execute();
  await db.transaction().execute(async (trx) => {
    for (const row of rows) {
      const coarse = storedPosition({ latitude: row.latitude!, longitude: row.longitude! });
      if (coarse.latitude === row.latitude && coarse.longitude === row.longitude) continue;
      await trx.updateTable("users").set(coarse).where("id", "=", row.id).execute();
    }
  });
}

export async function down(): Promise<void> {
  // The precise positions are gone on purpose; there is nothing to restore.
}
