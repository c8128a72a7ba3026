import type { Kysely } from "kysely";

interface Positions {
  users: { id: string; latitude: number | null; longitude: number | null };
}

/**
 * The grid of geo.server's `coarsen` as it was when this migration was written: a migration keeps
 * its own copy, so that later changes to the feature never change what it did.
 */
function cellCentre(latitude: number, longitude: number): { latitude: number; longitude: number } {
  const rowsPerDegree = 100;
  const rowLatitude = Math.round(latitude * rowsPerDegree) / rowsPerDegree || 0;
  const columns = Math.max(1, Math.floor(360 * rowsPerDegree * Math.cos((rowLatitude * Math.PI) / 180)));
  const columnDegrees = 360 / columns;
  let columnLongitude = Math.round(longitude / columnDegrees) * columnDegrees;
  if (columnLongitude >= 180) columnLongitude -= 360;
  if (columnLongitude < -180) columnLongitude += 360;
  return { latitude: rowLatitude, longitude: Number(columnLongitude.toFixed(6)) || 0 };
}

export async function up(untyped: Kysely<unknown>): Promise<void> {
  // Every position already stored moves to the centre of its ~1 km cell, as new ones are written
  // (geo.server's storedPosition); unit_x/y/z are generated from them and follow by themselves.
  const db = untyped as unknown as Kysely<Positions>;
  const rows = await db
    .selectFrom("users")
    .select(["id", "latitude", "longitude"])
    .where("latitude", "is not", null)
    .where("longitude", "is not", null)
    .execute();
  const move = async (trx: Kysely<Positions>) => {
    for (const row of rows) {
      const coarse = cellCentre(row.latitude!, row.longitude!);
      if (coarse.latitude === row.latitude && coarse.longitude === row.longitude) continue;
      await trx.updateTable("users").set(coarse).where("id", "=", row.id).execute();
    }
  };
  // PostgreSQL runs each migration in a transaction already; SQLite does not.
  if (db.isTransaction) await move(db);
  else await db.transaction().execute(move);
}

export async function down(): Promise<void> {
  // The precise positions are gone on purpose; there is nothing to restore.
}
