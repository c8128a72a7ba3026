import type { Kysely, Transaction } from "kysely";
import type { CancellationPolicy, Database, PetType, ServiceId, User } from "~db/schema";
import { db, executeKeepingPlan, flag, jsonList } from "~/platform/db.server";
import { announceNewProfile } from "~/platform/events/deck-news.server";
import { nowIso } from "~/platform/clock.server";
import { addPhotos, listPhotos, toPhotoView, type PhotoProblem, type PhotoView } from "~/features/media/index.server";
import { payoutStatusOf, refreshPayoutStatus } from "~/features/payments/index.server";
import { listPets, type PetView } from "~/features/pets/index.server";
import { positionForCity, TOO_OFTEN } from "~/features/geo/index.server";
import { type ProfileEditInput, type SitterDetailsInput, type SitterSetupInput } from "./schema";
import { HOURLY_RATE_DEFAULT } from "./options";
import { PRICE_FIELDS, SERVICES, termsOf, type ServiceUnit } from "./services";

export const isSitter = (role: User["role"]) => role === "sitter" || role === "both";
export const isOwner = (role: User["role"]) => role === "owner" || role === "both";

export function actingRole(user: Pick<User, "role" | "acting_role">): "owner" | "sitter" {
  if (user.role === "both") return user.acting_role ?? "owner";
  return user.role;
}

export interface PublicProfile {
  id: string;
  name: string;
  city: string;
  bio: string;
  role: User["role"];
  hourlyRateCents: number | null;
  yearsExperience: number | null;
  cancellationPolicy: CancellationPolicy | null;
  completedBookings: number;
  experience: string[];
  caresFor: string[];
  memberSince: string;
  rating: { average: number | null; count: number };
  photos: PhotoView[];
  pets: PetView[];
  /** The services offered, in SERVICES order, "hourly" first when the sitter has an hourly rate. */
  services: OfferedService[];
  maxPets: number;
  extraPetCents: number;
}

export interface OfferedService {
  service: ServiceId;
  /** What the price is per (translated as profile:services.unit.<unit>). */
  unit: ServiceUnit;
  priceCents: number;
  durationMinutes: number | null;
}

/**
 * The services besides "hourly" that each sitter offers, in SERVICES order (absent ids offer none): one query,
 * for a profile or the cards of a deck page.
 */
export async function servicesOf(
  database: Kysely<Database>,
  sitterIds: readonly string[],
): Promise<Map<string, OfferedService[]>> {
  const offered = new Map<string, OfferedService[]>();
  if (sitterIds.length === 0) return offered;
  const rows = await database
    .selectFrom("sitter_services")
    .select(["sitter_id", "service", "price_cents", "duration_minutes"])
    .where("sitter_id", "in", [...sitterIds])
    .execute();
  const order = (service: ServiceId) => SERVICES.findIndex((terms) => terms.id === service);
  rows.sort((a, b) => order(a.service) - order(b.service));
  for (const row of rows) {
    const list = offered.get(row.sitter_id) ?? [];
    list.push({
      service: row.service,
      unit: termsOf(row.service).unit,
      priceCents: row.price_cents,
      durationMinutes: row.duration_minutes,
    });
    offered.set(row.sitter_id, list);
  }
  return offered;
}

/** A sitter's hourly rate (null: not offered) followed by the other services they offer. */
export function withHourly(hourlyRateCents: number | null, others: OfferedService[] = []): OfferedService[] {
  return hourlyRateCents === null
    ? others
    : [{ service: "hourly", unit: "hour", priceCents: hourlyRateCents, durationMinutes: null }, ...others];
}

export async function getPublicProfile(userId: string): Promise<PublicProfile | null> {
  const user = await db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirst();
  if (!user || !user.email_verified_at || user.suspended_at || user.deleted_at) return null;
  const sitter = isSitter(user.role);
  const [photos, pets, completed, services] = await Promise.all([
    listPhotos({ userId, petId: null }),
    isOwner(user.role) ? listPets(userId) : [],
    sitter ? completedBookingCounts([userId]) : new Map<string, number>(),
    sitter ? servicesOf(db, [userId]) : new Map<string, OfferedService[]>(),
  ]);
  return {
    id: user.id,
    name: user.name,
    city: user.city,
    bio: user.bio,
    role: user.role,
    hourlyRateCents: sitter ? user.hourly_rate_cents : null,
    yearsExperience: sitter ? user.years_experience : null,
    cancellationPolicy: sitter ? user.cancellation_policy : null,
    completedBookings: completed.get(userId) ?? 0,
    experience: sitter ? jsonList.read(user.experience) : [],
    caresFor: sitter ? jsonList.read(user.cares_for) : [],
    memberSince: user.created_at,
    rating: { average: user.rating_average, count: user.review_count },
    photos: photos.map(toPhotoView),
    pets,
    services: sitter ? withHourly(user.hourly_rate_cents, services.get(userId)) : [],
    maxPets: user.max_pets,
    extraPetCents: user.extra_pet_cents,
  };
}

/** Completed bookings per sitter (absent ids have none): for profiles and the deck's cards. */
export async function completedBookingCounts(sitterIds: string[]): Promise<Map<string, number>> {
  if (sitterIds.length === 0) return new Map();
  // A few sitters read by key (a profile's one, a deck page's five): one plan suits every run.
  const rows = await executeKeepingPlan(
    db
      .selectFrom("bookings")
      .select(["sitter_id", (eb) => eb.fn.countAll<number>().as("count")])
      .where("sitter_id", "in", sitterIds)
      .where("status", "=", "completed")
      .groupBy("sitter_id"),
  );
  return new Map(rows.map((row) => [row.sitter_id, Number(row.count)]));
}

/** One bit per pet type in users.cares_for_mask, the copy of cares_for that the deck filters on through an index. */
const PET_TYPE_BITS: Record<PetType, number> = { dog: 1, cat: 2 };

/** What a sitter cares for, as stored: the JSON list shown on profiles and its bits for the deck, always written together. */
export function caresForColumns(caresFor: readonly PetType[]): { cares_for: string; cares_for_mask: number } {
  return {
    cares_for: jsonList.write(caresFor),
    cares_for_mask: caresFor.reduce((mask, type) => mask | PET_TYPE_BITS[type], 0),
  };
}

/** Every cares_for_mask value that includes the pet type: the deck's filter is `cares_for_mask in (…)`. */
export function masksCaringFor(petType: PetType): number[] {
  const all = Object.values(PET_TYPE_BITS).reduce((mask, bit) => mask | bit, 0);
  const bit = PET_TYPE_BITS[petType];
  return Array.from({ length: all + 1 }, (_, mask) => mask).filter((mask) => (mask & bit) !== 0);
}

/** A policy left out (the demo's sitters, older callers) leaves the stored one as it is. */
type SitterColumnsInput = Omit<SitterDetailsInput, "cancellationPolicy" | keyof ServiceFields> &
  Partial<Pick<SitterDetailsInput, "cancellationPolicy" | keyof ServiceFields>>;

type ServiceFields = Pick<
  SitterDetailsInput,
  | "servicesShown"
  | "services"
  | "walkPrice"
  | "dropInPrice"
  | "dayCarePrice"
  | "houseSittingPrice"
  | "boardingPrice"
  | "walkMinutes"
  | "extraPetPrice"
  | "maxPets"
>;

const toCents = (euros: number) => Math.round(euros * 100);

function sitterColumns(input: SitterColumnsInput) {
  // Without a list of services (older callers) the sitter offers by the hour, as before services existed.
  const hourly = input.services === undefined || input.services.includes("hourly");
  return {
    hourly_rate_cents: hourly ? toCents(input.hourlyRate) : null,
    years_experience: input.yearsExperience ?? null,
    experience: jsonList.write(input.experience),
    ...(input.cancellationPolicy ? { cancellation_policy: input.cancellationPolicy } : {}),
    ...(input.services !== undefined
      ? { max_pets: input.maxPets ?? 1, extra_pet_cents: toCents(input.extraPetPrice ?? 0) }
      : {}),
    ...caresForColumns(input.caresFor),
  };
}

/** The sitter_services rows for the ticked services (prices were checked by the schema). */
function serviceRows(sitterId: string, input: SitterColumnsInput) {
  return SERVICES.flatMap((terms) => {
    if (terms.id === "hourly" || !input.services?.includes(terms.id)) return [];
    const price = input[PRICE_FIELDS[terms.id]];
    if (price === undefined) return [];
    const duration = terms.id === "walk" ? Number(input.walkMinutes ?? 30) : (terms.durationsMinutes?.[0] ?? null);
    return [{ sitter_id: sitterId, service: terms.id, price_cents: toCents(price), duration_minutes: duration }];
  });
}

/** The users columns and the services, written together. */
async function writeSitterDetails(
  trx: Transaction<Database>,
  userId: string,
  input: SitterColumnsInput,
  extra: Partial<Pick<User, "role" | "acting_role" | "bio">> = {},
) {
  await trx
    .updateTable("users")
    .set({ ...extra, ...sitterColumns(input), updated_at: nowIso() })
    .where("id", "=", userId)
    .execute();
  if (input.services === undefined) return;
  await trx.deleteFrom("sitter_services").where("sitter_id", "=", userId).execute();
  const rows = serviceRows(userId, input);
  if (rows.length > 0) await trx.insertInto("sitter_services").values(rows).execute();
}

/** Only a sitter (or "both") has sitter details to change. */
export async function updateSitterDetails(
  user: Pick<User, "id" | "role">,
  input: SitterColumnsInput,
): Promise<boolean> {
  if (!isSitter(user.role)) return false;
  await db.transaction().execute((trx) => writeSitterDetails(trx, user.id, input));
  return true;
}

/** What the sitter details form starts with: the stored details, "by the hour" ticked for a new sitter. */
export async function sitterDetailsDefaults(user: User) {
  const offered = (await servicesOf(db, [user.id])).get(user.id) ?? [];
  const priceOf = (service: ServiceId) => {
    const found = offered.find((row) => row.service === service);
    return found ? String(found.priceCents / 100) : "";
  };
  const hasHourly = user.hourly_rate_cents !== null || offered.length === 0;
  return {
    hourlyRate: String((user.hourly_rate_cents ?? HOURLY_RATE_DEFAULT * 100) / 100),
    yearsExperience: user.years_experience === null ? "" : String(user.years_experience),
    experience: jsonList.read(user.experience),
    caresFor: jsonList.read(user.cares_for),
    cancellationPolicy: user.cancellation_policy,
    services: [...(hasHourly ? ["hourly"] : []), ...offered.map((row) => row.service)],
    walkPrice: priceOf("walk"),
    dropInPrice: priceOf("drop_in"),
    dayCarePrice: priceOf("day_care"),
    houseSittingPrice: priceOf("house_sitting"),
    boardingPrice: priceOf("boarding"),
    walkMinutes: String(offered.find((row) => row.service === "walk")?.durationMinutes ?? 30),
    extraPetPrice: String(user.extra_pet_cents / 100),
    maxPets: String(user.max_pets),
  };
}

export async function profilePage(user: User, backFromPayoutOnboarding: boolean) {
  // Stripe's webhook says how far onboarding got too, but a little later.
  if (backFromPayoutOnboarding && isSitter(user.role) && payoutStatusOf(user).provider === "stripe") {
    const ready = await refreshPayoutStatus(user);
    if (ready !== null) user = { ...user, payouts_enabled: flag.write(ready) };
  }
  const [profile, pets] = await Promise.all([getPublicProfile(user.id), isOwner(user.role) ? listPets(user.id) : []]);
  return {
    user: {
      name: user.name,
      email: user.email,
      phone: user.phone,
      city: user.city,
      timeZone: user.time_zone,
      role: user.role,
      actingRole: actingRole(user),
      isSitter: isSitter(user.role),
      isOwner: isOwner(user.role),
      termsAcceptedAt: user.terms_accepted_at,
    },
    mainPhoto: profile?.photos[0]?.cardUrl ?? null,
    rating: profile?.rating ?? { average: null, count: 0 },
    pets: pets.map((pet) => ({
      id: pet.id,
      name: pet.name,
      petType: pet.petType,
      photo: pet.photos[0]?.cardUrl ?? null,
    })),
    payouts: isSitter(user.role) ? payoutStatusOf(user) : null,
  };
}

export async function updateProfile(userId: string, input: ProfileEditInput): Promise<"saved" | typeof TOO_OFTEN> {
  const position = await positionForCity(userId, input.city, input.timeZone || null);
  if (position === TOO_OFTEN) return TOO_OFTEN;
  await db
    .updateTable("users")
    .set({
      name: input.name,
      phone: input.phone,
      city: input.city,
      postal_code: input.postalCode,
      bio: input.bio,
      ...(input.timeZone ? { time_zone: input.timeZone } : {}),
      ...position,
      updated_at: nowIso(),
    })
    .where("id", "=", userId)
    .execute();
  return "saved";
}

/** An owner becomes "both". Photos go first: if they are refused, nothing about the profile changes. */
export async function completeSitterProfile(
  user: Pick<User, "id" | "role">,
  input: Omit<SitterSetupInput, "cancellationPolicy"> & Partial<Pick<SitterSetupInput, "cancellationPolicy">>,
  images: Buffer[],
): Promise<{ status: "done" } | { status: "refused"; problem: PhotoProblem }> {
  const added = await addPhotos({ userId: user.id, petId: null }, images);
  if (added.status === "refused") return added;
  await db.transaction().execute((trx) =>
    writeSitterDetails(trx, user.id, input, {
      role: user.role === "owner" ? "both" : user.role,
      acting_role: user.role === "sitter" ? null : "sitter",
      bio: input.bio,
    }),
  );
  await announceNewProfile(user.id, "owners");
  return { status: "done" };
}

export async function switchActingRole(user: Pick<User, "id" | "role">, role: "owner" | "sitter"): Promise<boolean> {
  if (user.role !== "both") return false;
  await db.updateTable("users").set({ acting_role: role, updated_at: nowIso() }).where("id", "=", user.id).execute();
  return true;
}
