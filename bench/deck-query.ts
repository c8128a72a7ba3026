/**
 * The deck query at scale: 100,000 sitters and 100,000 pets spread around 40 European cities.
 * Times an owner's deck with every filter set, in local and in global mode, and a sitter's deck
 * of pets, then prints p50/p95 and SQLite's query plans.
 * Run: `npx tsx bench/deck-query.ts`. Prints figures only; the target is p95 < 10 ms.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { Viewer } from "../app/features/discovery/deck.server";

const dataDir = mkdtempSync(path.join(tmpdir(), "deck-bench-"));
process.env.DATA_DIR = dataDir;
const { db, migrateToLatest } = await import("../app/platform/db.server");
const { deckFor } = await import("../app/features/discovery/deck.server");

const SITTERS = 100_000;
const PETS = 100_000;
const OWNERS = 50_000;
const RUNS = 300;

const CITIES: [string, number, number][] = [
  ["Madrid", 40.4168, -3.7038], ["Barcelona", 41.3874, 2.1686], ["Valencia", 39.4699, -0.3763], ["Seville", 37.3891, -5.9845],
  ["Lisbon", 38.7223, -9.1393], ["Porto", 41.1579, -8.6291], ["Paris", 48.8566, 2.3522], ["Lyon", 45.764, 4.8357],
  ["Marseille", 43.2965, 5.3698], ["Toulouse", 43.6047, 1.4442], ["Rome", 41.9028, 12.4964], ["Milan", 45.4642, 9.19],
  ["Naples", 40.8518, 14.2681], ["Turin", 45.0703, 7.6869], ["Berlin", 52.52, 13.405], ["Munich", 48.1351, 11.582],
  ["Hamburg", 53.5511, 9.9937], ["Cologne", 50.9375, 6.9603], ["Frankfurt", 50.1109, 8.6821], ["Vienna", 48.2082, 16.3738],
  ["Zurich", 47.3769, 8.5417], ["Brussels", 50.8503, 4.3517], ["Amsterdam", 52.3676, 4.9041], ["Copenhagen", 55.6761, 12.5683],
  ["Stockholm", 59.3293, 18.0686], ["Oslo", 59.9139, 10.7522], ["Warsaw", 52.2297, 21.0122], ["Kraków", 50.0647, 19.945],
  ["Gdańsk", 54.352, 18.6466], ["Wrocław", 51.1079, 17.0385], ["Prague", 50.0755, 14.4378], ["Budapest", 47.4979, 19.0402],
  ["Riga", 56.9496, 24.1052], ["Vilnius", 54.6872, 25.2797], ["Tallinn", 59.437, 24.7536], ["Athens", 37.9838, 23.7275],
  ["Dublin", 53.3498, -6.2603], ["London", 51.5072, -0.1276], ["Bucharest", 44.4268, 26.1025], ["Sofia", 42.6977, 23.3219],
];

/** Deterministic pseudo-random numbers, so every run measures the same data. */
let seed = 42;
function random(): number {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 2 ** 32;
}
/** Somewhere around a city: most people within ~15 km of the centre, a few farther out. */
function around([, latitude, longitude]: [string, number, number]): [number, number] {
  const km = -Math.log(1 - random()) * 12;
  const angle = random() * 2 * Math.PI;
  return [latitude + (km / 111.2) * Math.cos(angle), longitude + (km / (111.2 * Math.cos((latitude * Math.PI) / 180))) * Math.sin(angle)];
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

await migrateToLatest();
const { default: SQLite } = await import("better-sqlite3");
const raw = new SQLite(path.join(dataDir, "trusted-sitters.db"));

const started = performance.now();
const insertUser = raw.prepare(`insert into users (id, email, password_hash, email_verified_at, name, phone, city, postal_code, role, bio,
  latitude, longitude, hourly_rate_cents, experience, cares_for, rating_average, review_count, created_at, updated_at)
  values (?, ?, 'x', ?, ?, '600000000', ?, '00000', ?, '', ?, ?, ?, '[]', ?, ?, ?, ?, ?)`);
const insertPet = raw.prepare(`insert into pets (id, owner_id, name, pet_type, age, created_at, updated_at) values (?, ?, ?, ?, '3', ?, ?)`);
const day = (n: number) => new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString();
raw.transaction(() => {
  for (let i = 0; i < SITTERS; i += 1) {
    const city = pick(CITIES);
    const [latitude, longitude] = around(city);
    const reviews = random() < 0.7 ? 1 + Math.floor(random() * 40) : 0;
    const rating = reviews ? Math.round((2.5 + random() * 2.5) * 10) / 10 : null;
    const caresFor = pick(['["dog"]', '["cat"]', '["dog","cat"]']);
    insertUser.run(`sitter-${i}`, `sitter-${i}@example.com`, day(i), `Sitter ${i}`, city[0], "sitter", latitude, longitude,
      500 + Math.floor(random() * 20) * 500, caresFor, rating, reviews, day(i), day(i));
  }
  for (let i = 0; i < OWNERS; i += 1) {
    const city = pick(CITIES);
    const [latitude, longitude] = around(city);
    insertUser.run(`owner-${i}`, `owner-${i}@example.com`, day(i), `Owner ${i}`, city[0], "owner", latitude, longitude, null, "[]", null, 0, day(i), day(i));
  }
  for (let i = 0; i < PETS; i += 1) {
    insertPet.run(`pet-${i}`, `owner-${i % OWNERS}`, `Pet ${i}`, random() < 0.6 ? "dog" : "cat", day(i), day(i));
  }
})();
raw.exec("analyze");
console.log(`generated ${SITTERS.toLocaleString("en")} sitters, ${PETS.toLocaleString("en")} pets of ${OWNERS.toLocaleString("en")} owners in ${((performance.now() - started) / 1000).toFixed(1)} s`);

// The viewers live in Madrid and have already swiped 300 cards each.
const owner: Viewer = {
  id: "owner-0", role: "owner", latitude: 40.4168, longitude: -3.7038, browse_mode: "local",
  filter_pet_type: "dog", filter_max_distance_km: 50, filter_min_rating: 3, filter_max_price_cents: 3000, filter_sort: "rating",
};
const sitter: Viewer = { ...owner, id: "sitter-0", role: "sitter", filter_min_rating: 0, filter_max_price_cents: null, filter_sort: "distance" };
raw.transaction(() => {
  const swipe = raw.prepare(`insert into swipes (swiper_id, target_user_id, target_pet_id, decision, created_at) values (?, ?, ?, ?, ?)`);
  for (let i = 0; i < 300; i += 1) {
    swipe.run(owner.id, `sitter-${1 + i}`, null, i % 3 ? "pass" : "like", day(i));
    swipe.run(sitter.id, `owner-${1 + i}`, `pet-${1 + i}`, i % 3 ? "pass" : "like", day(i));
  }
})();

async function measure(label: string, viewer: Viewer, tab: "sitters" | "pets") {
  const times: number[] = [];
  let cards = 0;
  for (let i = 0; i < RUNS; i += 1) {
    const t0 = performance.now();
    const result = await deckFor(viewer, tab);
    times.push(performance.now() - t0);
    cards = result.status === "cards" ? result.cards.length : -1;
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(2);
  console.log(`${label.padEnd(58)} p50 ${at(0.5).padStart(6)} ms   p95 ${at(0.95).padStart(6)} ms   (${cards} cards)`);
}

/** SQLite's plan for the next deck query, captured by running it once with EXPLAIN QUERY PLAN in front. */
async function plan(label: string, viewer: Viewer, tab: "sitters" | "pets") {
  const statements: { sql: string; parameters: readonly unknown[] }[] = [];
  const { db: database } = await import("../app/platform/db.server");
  const original = database.getExecutor().executeQuery.bind(database.getExecutor());
  const executor = database.getExecutor() as { executeQuery: typeof original };
  executor.executeQuery = (async (query: Parameters<typeof original>[0], ...rest: unknown[]) => {
    if (query.sql.includes("from \"users\" as \"u\"") || query.sql.includes("from \"pets\" as \"p\"")) statements.push({ sql: query.sql, parameters: query.parameters });
    return (original as (...args: unknown[]) => ReturnType<typeof original>)(query, ...rest);
  }) as typeof original;
  await deckFor(viewer, tab);
  executor.executeQuery = original;
  console.log(`\nplan: ${label}`);
  for (const statement of statements) {
    for (const row of raw.prepare(`explain query plan ${statement.sql}`).all(...(statement.parameters as never[])) as { detail: string }[]) {
      console.log(`  ${row.detail}`);
    }
  }
}

await measure("owner, local 50 km, dog, rating >= 3, <= €30/h, by rating", owner, "sitters");
await measure("owner, local 50 km, dog, rating >= 3, <= €30/h, by distance", { ...owner, filter_sort: "distance" }, "sitters");
await measure("owner, global, dog, rating >= 3, <= €30/h, by rating", { ...owner, browse_mode: "global" }, "sitters");
await measure("owner, global, dog, rating >= 3, <= €30/h, by distance", { ...owner, browse_mode: "global", filter_sort: "distance" }, "sitters");
await measure("owner, global, dog, rating >= 3, <= €30/h, by price", { ...owner, browse_mode: "global", filter_sort: "price" }, "sitters");
await measure("owner, global, dog, rating >= 3, <= €30/h, newest", { ...owner, browse_mode: "global", filter_sort: "newest" }, "sitters");
await measure("sitter, local 50 km, dogs, by distance", { ...sitter, filter_pet_type: "dog" }, "pets");
await measure("sitter, global, dogs, by distance", { ...sitter, browse_mode: "global", filter_pet_type: "dog" }, "pets");
await measure("sitter, global, dogs, newest", { ...sitter, browse_mode: "global", filter_pet_type: "dog", filter_sort: "newest" }, "pets");

await plan("owner, local, every filter, by rating", owner, "sitters");
await plan("owner, global, every filter, by rating", { ...owner, browse_mode: "global" }, "sitters");
await plan("sitter, local, by distance", sitter, "pets");

raw.close();
await db.destroy();
rmSync(dataDir, { recursive: true, force: true });
