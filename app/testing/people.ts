import { randomUUID } from "node:crypto";
import type { NewUser, PetType, Role, User } from "~db/schema";
import { nowIso } from "~/platform/clock.server";
import { db } from "~/platform/db.server";
import { startSession } from "~/platform/session.server";
import type { Coordinates } from "~/features/geo/index.server";
import { hashPassword } from "~/features/auth/index.server";
import type { SignupInput } from "~/features/auth/accounts.server";

export const PASSWORD = "walkies-at-dawn-42";

export interface PersonOptions {
  id?: string;
  email?: string;
  name?: string;
  /** Hashed as sign-up would; without one, no password signs in. */
  password?: string;
  verified?: boolean;
  timeZone?: string;
  language?: string;
  city?: string;
  postalCode?: string;
  at?: Coordinates | null;
  /** Sitters get 1500 unless told otherwise; owners none. */
  rateCents?: number | null;
  createdAt?: string;
  /** Any other column: ratings, deck filters, what a sitter cares for… */
  columns?: Partial<NewUser>;
  /** Also start a session, and hand back its cookie as a browser sends it. */
  signedIn?: boolean;
}

export type Person = User;
export type SignedInPerson = Person & { cookie: string };

/** A person's row, written straight to the database (tests about sign-up use `signupInput` and the real functions). */
export async function person(role: Role, options: PersonOptions & { signedIn: true }): Promise<SignedInPerson>;
export async function person(role: Role, options?: PersonOptions): Promise<Person>;
export async function person(role: Role, options: PersonOptions = {}): Promise<Person | SignedInPerson> {
  const id = options.id ?? randomUUID();
  const at = options.createdAt ?? nowIso();
  await db
    .insertInto("users")
    .values({
      id,
      email: options.email ?? `${id}@example.com`,
      password_hash: options.password === undefined ? "x" : await hashPassword(options.password),
      email_verified_at: options.verified === false ? null : at,
      name: options.name ?? `${role} ${id.slice(0, 4)}`,
      phone: "600",
      city: options.city ?? "Madrid",
      postal_code: options.postalCode ?? "28004",
      role,
      bio: "",
      latitude: options.at?.latitude ?? null,
      longitude: options.at?.longitude ?? null,
      time_zone: options.timeZone ?? "Europe/Madrid",
      language: options.language ?? "en",
      hourly_rate_cents: options.rateCents !== undefined ? options.rateCents : role === "owner" ? null : 1500,
      created_at: at,
      updated_at: at,
      ...options.columns,
    })
    .execute();
  const row = await db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  if (!options.signedIn) return row;
  return { ...row, cookie: (await startSession(id)).split(";")[0]! };
}

export async function petOf(
  ownerId: string,
  options: { name?: string; petType?: PetType; createdAt?: string } = {},
): Promise<string> {
  const id = randomUUID();
  const at = options.createdAt ?? new Date().toISOString();
  await db
    .insertInto("pets")
    .values({
      id,
      owner_id: ownerId,
      name: options.name ?? "Rex",
      pet_type: options.petType ?? "dog",
      age: "3",
      breed: "Mixed",
      temperament: '["friendly"]',
      energy_level: "medium",
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

/** A photo's row only: no image files behind it. */
export async function photoOf(
  userId: string,
  options: { petId?: string | null; position?: number } = {},
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto("photos")
    .values({
      id,
      user_id: userId,
      pet_id: options.petId ?? null,
      position: options.position ?? 0,
      card_key: `${id}-card.webp`,
      full_key: `${id}-full.webp`,
      width: 800,
      height: 600,
      created_at: new Date().toISOString(),
    })
    .execute();
  return id;
}

/** What the sign-up form sends, for the tests that go through the real sign-up. */
export const signupInput = (overrides: Partial<SignupInput> = {}): SignupInput => ({
  role: "owner",
  name: "Ana García",
  city: "Madrid",
  postalCode: "28004",
  phone: "+34 600 111 222",
  email: `${randomUUID()}@example.com`,
  password: PASSWORD,
  ...overrides,
});

export const emailsTo = (address: string) =>
  db
    .selectFrom("email_outbox")
    .select(["subject", "text_body", "html_body"])
    .where("to_address", "=", address)
    .orderBy("id")
    .execute();

export const notificationsOf = (userId: string) =>
  db.selectFrom("notifications").select(["type", "data"]).where("user_id", "=", userId).orderBy("created_at").execute();

/** The kinds of booking notices a person got, in order ("requested", "accepted", …). */
export async function noticesOf(userId: string): Promise<string[]> {
  const rows = await notificationsOf(userId);
  return rows.map((row) => (JSON.parse(row.data) as { kind?: string }).kind ?? row.type);
}

/** A match between two people, written directly (ids in the table's order); returns its id. */
export async function matchOf(one: string, two: string): Promise<string> {
  const [a, b] = one < two ? [one, two] : [two, one];
  const matchId = randomUUID();
  await db
    .insertInto("matches")
    .values({ id: matchId, user_a_id: a, user_b_id: b, created_at: new Date().toISOString() })
    .execute();
  return matchId;
}
