import { getAllCountries, getCountry, getTimezone } from "countries-and-timezones";
import { sql } from "kysely";
import { placeKey } from "~db/places";
import { db } from "~/platform/db.server";
import { greatCircleKm, type Coordinates } from "./geo.server";

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

/**
 * The time zone of a city from the gazetteer: of its country's zones, the one whose own city is
 * nearest (Barcelona → Europe/Madrid, Vladivostok → Asia/Vladivostok). Null when the city is unknown.
 */
export async function timeZoneOfCity(city: string): Promise<string | null> {
  const [name = "", ...rest] = city.split(/[,(/]/);
  const named = countryByName.get(placeKey(rest.join(" ")));
  let place: { latitude: number; longitude: number; country: string } | undefined;
  for (const key of [...new Set([placeKey(city), placeKey(name)])].filter(Boolean)) {
    let query = db.selectFrom("places").select(["latitude", "longitude", "country"]).where("key", "=", key);
    if (named) query = query.where("country", "=", named);
    place = await query.orderBy("population", "desc").executeTakeFirst();
    if (place) break;
  }
  if (!place) return null;
  const zones = getCountry(place.country)?.timezones ?? [];
  if (zones.length <= 1) return zones[0] ?? null;
  let best: { zone: string; km: number } | null = null;
  for (const zone of zones) {
    const zoneCity = zone.slice(zone.lastIndexOf("/") + 1).replaceAll("_", " ");
    const at = await db
      .selectFrom("places")
      .select(["latitude", "longitude"])
      .where("key", "=", placeKey(zoneCity))
      .where("country", "=", place.country)
      .orderBy("population", "desc")
      .executeTakeFirst();
    if (!at) continue;
    const km = greatCircleKm(place, at);
    if (!best || km < best.km) best = { zone, km };
  }
  return best?.zone ?? zones[0] ?? null;
}
