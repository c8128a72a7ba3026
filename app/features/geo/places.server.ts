import { getAllCountries, getTimezone } from "countries-and-timezones";
import { sql } from "kysely";
import { placeKey } from "~db/places";
import { db } from "~/platform/db.server";
import type { Coordinates } from "./geo.server";

const countryByName = new Map(Object.values(getAllCountries()).map((country) => [placeKey(country.name), country.id]));

/**
 * "Valencia, Spain" names its country; otherwise places in the countries of the person's time zone
 * come first (Valencia in Venezuela for America/Caracas), then the most populous.
 */
export async function coordinatesOfCity(city: string, timeZone: string | null): Promise<Coordinates | null> {
  const [name = "", ...rest] = city.split(/[,(/]/);
  const named = countryByName.get(placeKey(rest.join(" ")));
  const countries = named ? [named] : (timeZone && getTimezone(timeZone)?.countries) || [];
  const candidates = [...new Set([placeKey(city), placeKey(name)])].filter(Boolean);
  for (const key of candidates) {
    let query = db.selectFrom("places").select(["latitude", "longitude"]).where("key", "=", key);
    if (countries.length) query = query.orderBy(sql`country in (${sql.join(countries)})`, "desc");
    const place = await query.orderBy("population", "desc").executeTakeFirst();
    if (place) return place;
  }
  return null;
}
