import type { CancellationPolicy, PetType, User } from "~db/schema";
import { db, executeKeepingPlan, flag, jsonList } from "~/platform/db.server";
import { announceNewProfile } from "~/platform/events/deck-news.server";
import { nowIso } from "~/platform/clock.server";
import { addPhotos, listPhotos, toPhotoView, type PhotoProblem, type PhotoView } from "~/features/media/index.server";
import { payoutStatusOf, refreshPayoutStatus } from "~/features/payments/index.server";
import { listPets, type PetView } from "~/features/pets/index.server";
import { positionForCity, TOO_OFTEN } from "~/features/geo/index.server";
import type { ProfileEditInput, SitterDetailsInput, SitterSetupInput } from "./schema";

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
}

export async function getPublicProfile(userId: string): Promise<PublicProfile | null> {
  const user = await db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirst();
  if (!user || !user.email_verified_at || user.suspended_at || user.deleted_at) return null;
  const sitter = isSitter(user.role);
  const [photos, pets, completed] = await Promise.all([
    listPhotos({ userId, petId: null }),
    isOwner(user.role) ? listPets(userId) : [],
    sitter ? completedBookingCounts([userId]) : new Map<string, number>(),
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
type SitterColumnsInput = Omit<SitterDetailsInput, "cancellationPolicy"> &
  Partial<Pick<SitterDetailsInput, "cancellationPolicy">>;

function sitterColumns(input: SitterColumnsInput) {
  return {
    hourly_rate_cents: Math.round(input.hourlyRate * 100),
    years_experience: input.yearsExperience ?? null,
    experience: jsonList.write(input.experience),
    ...(input.cancellationPolicy ? { cancellation_policy: input.cancellationPolicy } : {}),
    ...caresForColumns(input.caresFor),
  };
}

/** Only a sitter (or "both") has sitter details to change. */
export async function updateSitterDetails(
  user: Pick<User, "id" | "role">,
  input: SitterColumnsInput,
): Promise<boolean> {
  if (!isSitter(user.role)) return false;
  await db
    .updateTable("users")
    .set({ ...sitterColumns(input), updated_at: nowIso() })
    .where("id", "=", user.id)
    .execute();
  return true;
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
  await db
    .updateTable("users")
    .set({
      role: user.role === "owner" ? "both" : user.role,
      acting_role: user.role === "sitter" ? null : "sitter",
      bio: input.bio,
      ...sitterColumns(input),
      updated_at: nowIso(),
    })
    .where("id", "=", user.id)
    .execute();
  await announceNewProfile(user.id, "owners");
  return { status: "done" };
}

export async function switchActingRole(user: Pick<User, "id" | "role">, role: "owner" | "sitter"): Promise<boolean> {
  if (user.role !== "both") return false;
  await db.updateTable("users").set({ acting_role: role, updated_at: nowIso() }).where("id", "=", user.id).execute();
  return true;
}
