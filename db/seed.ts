import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import sharp from "sharp";
import { hashPassword } from "~/features/auth/passwords.server";
import { addPhotos } from "~/features/media/photos.server";
import { priceOf } from "~/features/bookings/machine";
import { storedPosition } from "~/features/geo/geo.server";
import { instantAt, wallClockIn } from "~/platform/time";
import { ensurePlans } from "./plans";
import type { Database, EnergyLevel, PetType, Role } from "./schema";

export const DEMO_PASSWORD = "happy-paws-2026";

interface DemoPerson {
  name: string;
  role: Role;
  city: string;
  postalCode: string;
  latitude: number;
  longitude: number;
  language: string;
  timeZone: string;
  bio: string;
}

/** Real places, so distances in the deck are real ones. */
const people: DemoPerson[] = [
  { name: "Lucía Fernández", role: "owner", city: "Madrid", postalCode: "28004", latitude: 40.4237, longitude: -3.7011, language: "es", timeZone: "Europe/Madrid", bio: "Two rescue dogs and a very opinionated cat." },
  { name: "Javier Ruiz", role: "sitter", city: "Madrid", postalCode: "28014", latitude: 40.4139, longitude: -3.6922, language: "es", timeZone: "Europe/Madrid", bio: "Vet nursing student; long walks in Retiro every day." },
  { name: "Carmen Ortega", role: "both", city: "Madrid", postalCode: "28010", latitude: 40.4332, longitude: -3.6934, language: "es", timeZone: "Europe/Madrid", bio: "I have a beagle and I look after neighbours' pets on weekends." },
  { name: "Marc Puig", role: "sitter", city: "Barcelona", postalCode: "08012", latitude: 41.4036, longitude: 2.1567, language: "es", timeZone: "Europe/Madrid", bio: "Runner and dog lover; high-energy dogs welcome." },
  { name: "Núria Vidal", role: "owner", city: "Barcelona", postalCode: "08003", latitude: 41.3851, longitude: 2.1834, language: "es", timeZone: "Europe/Madrid", bio: "Greyhound mum looking for gentle walkers." },
  { name: "Inês Carvalho", role: "sitter", city: "Lisbon", postalCode: "1200-195", latitude: 38.7139, longitude: -9.1394, language: "pt", timeZone: "Europe/Lisbon", bio: "Cat whisperer with ten years of experience." },
  { name: "Tiago Almeida", role: "owner", city: "Porto", postalCode: "4050-262", latitude: 41.1496, longitude: -8.6109, language: "pt", timeZone: "Europe/Lisbon", bio: "Working long shifts; my labrador needs company." },
  { name: "Giulia Romano", role: "sitter", city: "Rome", postalCode: "00184", latitude: 41.8955, longitude: 12.4823, language: "it", timeZone: "Europe/Rome", bio: "Trained in canine first aid. Puppies are my speciality." },
  { name: "Marco Bianchi", role: "owner", city: "Milan", postalCode: "20121", latitude: 45.4722, longitude: 9.1869, language: "it", timeZone: "Europe/Rome", bio: "Two kittens and a busy travel schedule." },
  { name: "Élodie Martin", role: "both", city: "Paris", postalCode: "75011", latitude: 48.8589, longitude: 2.3799, language: "fr", timeZone: "Europe/Paris", bio: "Owner of a senior poodle; I sit small dogs nearby." },
  { name: "Hugo Lefèvre", role: "sitter", city: "Lyon", postalCode: "69002", latitude: 45.7578, longitude: 4.8320, language: "fr", timeZone: "Europe/Paris", bio: "Former shelter volunteer, calm with anxious dogs." },
  { name: "Lena Schmidt", role: "sitter", city: "Berlin", postalCode: "10115", latitude: 52.5321, longitude: 13.3849, language: "de", timeZone: "Europe/Berlin", bio: "Dog trainer; basic obedience included with every walk." },
  { name: "Jonas Weber", role: "owner", city: "Munich", postalCode: "80331", latitude: 48.1374, longitude: 11.5755, language: "de", timeZone: "Europe/Berlin", bio: "Our Bernese mountain dog loves the Isar." },
  { name: "Zofia Kowalska", role: "sitter", city: "Warsaw", postalCode: "00-001", latitude: 52.2297, longitude: 21.0122, language: "pl", timeZone: "Europe/Warsaw", bio: "Home all day, garden with a fence, cats and dogs." },
  { name: "Piotr Nowak", role: "owner", city: "Kraków", postalCode: "31-001", latitude: 50.0614, longitude: 19.9366, language: "pl", timeZone: "Europe/Warsaw", bio: "Husky owner; she needs a lot of exercise." },
  { name: "Anna Ivanova", role: "both", city: "Riga", postalCode: "LV-1050", latitude: 56.9496, longitude: 24.1052, language: "ru", timeZone: "Europe/Riga", bio: "I have two cats and I care for pets while their owners travel." },
  { name: "Emma Wilson", role: "owner", city: "Dublin", postalCode: "D02", latitude: 53.3498, longitude: -6.2603, language: "en", timeZone: "Europe/Dublin", bio: "First-time dog owner with a very curious spaniel." },
  { name: "Oliver Brown", role: "sitter", city: "Dublin", postalCode: "D08", latitude: 53.3419, longitude: -6.2867, language: "en", timeZone: "Europe/Dublin", bio: "Retired teacher with time, patience and a big garden." },
];

interface DemoPet {
  owner: string;
  name: string;
  petType: PetType;
  age: string;
  breed: string;
  temperament: string[];
  energyLevel: EnergyLevel;
  notes: string;
}

/** Past bookings that really happened in the demo world: completed, paid, and reviewed by both sides. */
const pastBookings: { owner: string; sitter: string; pet: string; daysAgo: number; ownerStars: number; ownerSays: string; sitterStars: number; sitterSays: string }[] = [
  { owner: "Lucía Fernández", sitter: "Javier Ruiz", pet: "Luna", daysAgo: 12, ownerStars: 5, ownerSays: "Luna came home tired and happy. Javier sent photos from Retiro.", sitterStars: 5, sitterSays: "Luna is a joy, and Lucía left clear instructions." },
  { owner: "Carmen Ortega", sitter: "Javier Ruiz", pet: "Toby", daysAgo: 20, ownerStars: 4, ownerSays: "Punctual and kind with Toby; a bit short on updates.", sitterStars: 5, sitterSays: "Toby pulls a lot but he's a sweetheart." },
  { owner: "Núria Vidal", sitter: "Marc Puig", pet: "Greta", daysAgo: 9, ownerStars: 5, ownerSays: "Marc understood that Greta needs calm walks. Perfect.", sitterStars: 5, sitterSays: "Greta is the gentlest greyhound." },
  { owner: "Tiago Almeida", sitter: "Inês Carvalho", pet: "Bolt", daysAgo: 15, ownerStars: 4, ownerSays: "Bolt loved her. Booking was easy.", sitterStars: 4, sitterSays: "Energetic pup; bring treats." },
  { owner: "Marco Bianchi", sitter: "Giulia Romano", pet: "Pepe", daysAgo: 7, ownerStars: 5, ownerSays: "Giulia is wonderful with kittens.", sitterStars: 5, sitterSays: "Pepe and Nina were angels." },
  { owner: "Jonas Weber", sitter: "Lena Schmidt", pet: "Bruno", daysAgo: 10, ownerStars: 5, ownerSays: "Lena even worked on Bruno's recall. Recommended!", sitterStars: 5, sitterSays: "Bruno is a gentle giant." },
  { owner: "Piotr Nowak", sitter: "Zofia Kowalska", pet: "Nika", daysAgo: 18, ownerStars: 3, ownerSays: "Nika escaped once in the garden, but Zofia handled it well.", sitterStars: 4, sitterSays: "Nika is clever: the gate needs a lock." },
  { owner: "Élodie Martin", sitter: "Hugo Lefèvre", pet: "Coco", daysAgo: 5, ownerStars: 5, ownerSays: "Hugo was so patient with my old Coco.", sitterStars: 5, sitterSays: "Coco sets the pace, and that's fine." },
];

/** Sitters publish 09:00-17:00 (their time zone) for the next two weeks. */
const AVAILABILITY_DAYS = 14;

const pets: DemoPet[] = [
  { owner: "Lucía Fernández", name: "Luna", petType: "dog", age: "4 years", breed: "labradorRetriever", temperament: ["friendly", "playful"], energyLevel: "high", notes: "Loves the park and every person in it." },
  { owner: "Lucía Fernández", name: "Michi", petType: "cat", age: "7 years", breed: "siamese", temperament: ["calm"], energyLevel: "low", notes: "Needs his food at 8 sharp." },
  { owner: "Carmen Ortega", name: "Toby", petType: "dog", age: "3 years", breed: "beagle", temperament: ["energetic", "goodWithKids"], energyLevel: "high", notes: "Follows his nose; keep him on the lead." },
  { owner: "Núria Vidal", name: "Greta", petType: "dog", age: "6 years", breed: "other", temperament: ["shy", "calm"], energyLevel: "medium", notes: "Retired racing greyhound, gentle and quiet." },
  { owner: "Tiago Almeida", name: "Bolt", petType: "dog", age: "2 years", breed: "labradorRetriever", temperament: ["playful", "goodWithDogs"], energyLevel: "high", notes: "Still a puppy at heart." },
  { owner: "Marco Bianchi", name: "Pepe", petType: "cat", age: "8 months", breed: "maineCoon", temperament: ["playful"], energyLevel: "high", notes: "Two kittens: Pepe and Nina." },
  { owner: "Élodie Martin", name: "Coco", petType: "dog", age: "12 years", breed: "poodle", temperament: ["calm", "friendly"], energyLevel: "low", notes: "Senior lady, short walks only." },
  { owner: "Jonas Weber", name: "Bruno", petType: "dog", age: "5 years", breed: "other", temperament: ["friendly", "goodWithKids"], energyLevel: "medium", notes: "Bernese mountain dog, hates the heat." },
  { owner: "Piotr Nowak", name: "Nika", petType: "dog", age: "3 years", breed: "siberianHusky", temperament: ["energetic"], energyLevel: "high", notes: "Escape artist: check the gate twice." },
  { owner: "Anna Ivanova", name: "Barsik", petType: "cat", age: "5 years", breed: "russianBlue", temperament: ["shy"], energyLevel: "low", notes: "Hides under the bed for the first hour." },
  { owner: "Emma Wilson", name: "Biscuit", petType: "dog", age: "1 year", breed: "cockerSpaniel", temperament: ["playful", "anxious"], energyLevel: "high", notes: "Nervous around bikes." },
];

/** Sitter details: rate in euros, experience chips, pets cared for. */
const sitterDetails: Record<string, { rate: number; experience: string[]; caresFor: PetType[] }> = {
  "Javier Ruiz": { rate: 14, experience: ["largeDogs", "puppies", "specialNeeds"], caresFor: ["dog"] },
  "Carmen Ortega": { rate: 12, experience: ["smallDogs", "cats"], caresFor: ["dog", "cat"] },
  "Marc Puig": { rate: 18, experience: ["highEnergy", "largeDogs", "basicTraining"], caresFor: ["dog"] },
  "Inês Carvalho": { rate: 15, experience: ["cats", "kittens", "seniorDogs"], caresFor: ["cat", "dog"] },
  "Giulia Romano": { rate: 16, experience: ["puppies", "basicTraining", "multiplePets"], caresFor: ["dog"] },
  "Élodie Martin": { rate: 13, experience: ["smallDogs", "seniorDogs"], caresFor: ["dog"] },
  "Hugo Lefèvre": { rate: 15, experience: ["specialNeeds", "largeDogs"], caresFor: ["dog", "cat"] },
  "Lena Schmidt": { rate: 22, experience: ["basicTraining", "highEnergy", "puppies"], caresFor: ["dog"] },
  "Zofia Kowalska": { rate: 11, experience: ["cats", "multiplePets", "largeDogs"], caresFor: ["dog", "cat"] },
  "Anna Ivanova": { rate: 12, experience: ["cats", "kittens"], caresFor: ["cat"] },
  "Oliver Brown": { rate: 17, experience: ["seniorDogs", "largeDogs", "multiplePets"], caresFor: ["dog"] },
};

/** A picture made here (no network): a person's silhouette or a paw on a colour of the name's own. */
async function generatedPicture(name: string, kind: "person" | "pet"): Promise<Buffer> {
  const hue = [...name].reduce((sum, char) => sum + char.charCodeAt(0) * 7, 0) % 360;
  const figure =
    kind === "person"
      ? `<circle cx="400" cy="380" r="150" fill="hsl(${hue} 35% 92%)"/><path d="M130 1000 C130 720 270 600 400 600 C530 600 670 720 670 1000Z" fill="hsl(${hue} 35% 92%)"/>`
      : `<g fill="hsl(${hue} 35% 92%)"><ellipse cx="400" cy="620" rx="170" ry="140"/><ellipse cx="190" cy="430" rx="75" ry="100"/><ellipse cx="610" cy="430" rx="75" ry="100"/><ellipse cx="300" cy="270" rx="70" ry="95"/><ellipse cx="500" cy="270" rx="70" ry="95"/></g>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="1000"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue} 55% 45%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360} 55% 30%)"/></linearGradient></defs><rect width="800" height="1000" fill="url(#g)"/>${figure}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

export interface DemoLogin {
  email: string;
  password: string;
  role: Role;
  name: string;
}

function demoEmail(name: string, role: Role): string {
  const first = name.split(" ")[0]!.normalize("NFD").replace(/[^a-zA-Z]/g, "").toLowerCase();
  return `${first}.${role}@demo.trustedsitters.app`;
}

/**
 * Fills the database with a small living marketplace. With onlyIfEmpty it does nothing when
 * any user exists, so a demo server can call it at every start.
 */
export async function seedDemoData(db: Kysely<Database>, { onlyIfEmpty = false } = {}): Promise<DemoLogin[] | null> {
  if (onlyIfEmpty) {
    const anyUser = await db.selectFrom("users").select("id").limit(1).executeTakeFirst();
    if (anyUser) return null;
  }
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const at = new Date().toISOString();
  const logins: DemoLogin[] = [];
  const userIds = new Map<string, string>();
  await db.transaction().execute(async (trx) => {
    for (const person of people) {
      const email = demoEmail(person.name, person.role);
      const existing = await trx.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
      if (existing) continue;
      const id = randomUUID();
      userIds.set(person.name, id);
      const details = sitterDetails[person.name];
      await trx
        .insertInto("users")
        .values({
          id,
          hourly_rate_cents: details ? details.rate * 100 : null,
          experience: JSON.stringify(details?.experience ?? []),
          cares_for: JSON.stringify(details?.caresFor ?? []),
          email,
          password_hash: passwordHash,
          email_verified_at: at,
          name: person.name,
          phone: "+34 600 000 000",
          city: person.city,
          postal_code: person.postalCode,
          role: person.role,
          bio: person.bio,
          ...storedPosition(person),
          location_enabled: 1,
          location_updated_at: at,
          time_zone: person.timeZone,
          language: person.language,
          created_at: at,
          updated_at: at,
        })
        .execute();
      logins.push({ email, password: DEMO_PASSWORD, role: person.role, name: person.name });
    }
    for (const pet of pets) {
      const ownerId = userIds.get(pet.owner);
      if (!ownerId) continue;
      await trx
        .insertInto("pets")
        .values({
          id: randomUUID(),
          owner_id: ownerId,
          name: pet.name,
          pet_type: pet.petType,
          age: pet.age,
          breed: pet.breed,
          notes: pet.notes,
          temperament: JSON.stringify(pet.temperament),
          special_needs: "",
          energy_level: pet.energyLevel,
          created_at: at,
          updated_at: at,
        })
        .execute();
    }
  });
  if (userIds.size === 0) return logins;
  await seedBookings(db, userIds);
  // The premium plans are written by migration 0007 too; repeating it keeps them in step with db/plans.ts.
  await ensurePlans(db);
  // Pictures are processed like uploads, after the rows exist (never inside the transaction).
  for (const [name, userId] of userIds) await addPhotos({ userId, petId: null }, [await generatedPicture(name, "person")], db);
  const petRows = await db.selectFrom("pets").select(["id", "owner_id", "name"]).where("owner_id", "in", [...userIds.values()]).execute();
  for (const pet of petRows) await addPhotos({ userId: pet.owner_id, petId: pet.id }, [await generatedPicture(pet.name, "pet")], db);
  return logins;
}

async function seedBookings(db: Kysely<Database>, userIds: Map<string, string>) {
  const today = new Date();
  await db.transaction().execute(async (trx) => {
    const sitters = await trx
      .selectFrom("users")
      .select(["id", "time_zone"])
      .where("id", "in", [...userIds.values()])
      .where("hourly_rate_cents", "is not", null)
      .execute();
    for (const sitter of sitters) {
      for (let offset = 1; offset <= AVAILABILITY_DAYS; offset += 1) {
        const day = wallClockIn(sitter.time_zone, new Date(today.getTime() + offset * 24 * 3600_000)).day;
        await trx
          .insertInto("availability_slots")
          .values({
            id: randomUUID(),
            sitter_id: sitter.id,
            start_at: instantAt(sitter.time_zone, day, "09:00").toISOString(),
            end_at: instantAt(sitter.time_zone, day, "17:00").toISOString(),
            status: "available",
            created_at: today.toISOString(),
          })
          .execute();
      }
    }
    for (const past of pastBookings) {
      const ownerId = userIds.get(past.owner);
      const sitterId = userIds.get(past.sitter);
      if (!ownerId || !sitterId) continue;
      const sitter = await trx.selectFrom("users").select(["hourly_rate_cents", "time_zone"]).where("id", "=", sitterId).executeTakeFirstOrThrow();
      const pet = await trx.selectFrom("pets").select(["id", "name"]).where("owner_id", "=", ownerId).where("name", "=", past.pet).executeTakeFirstOrThrow();
      const day = wallClockIn(sitter.time_zone, new Date(today.getTime() - past.daysAgo * 24 * 3600_000)).day;
      const start = instantAt(sitter.time_zone, day, "10:00");
      const end = new Date(start.getTime() + 2 * 3600_000);
      const price = priceOf(sitter.hourly_rate_cents ?? 1500, 2);
      const bookingId = randomUUID();
      await trx
        .insertInto("bookings")
        .values({
          id: bookingId, owner_id: ownerId, sitter_id: sitterId, pet_id: pet.id, pet_name: pet.name,
          start_at: start.toISOString(), end_at: end.toISOString(), hours: 2, hourly_rate_cents: sitter.hourly_rate_cents ?? 1500,
          subtotal_cents: price.subtotal, fee_cents: price.fee, total_cents: price.total,
          status: "completed", payment_status: "released", payment_provider: "test", card_label: "Visa •••• 4242",
          confirmed_at: start.toISOString(), completed_at: end.toISOString(), released_at: end.toISOString(),
          created_at: start.toISOString(), updated_at: end.toISOString(),
        })
        .execute();
      await trx
        .insertInto("reviews")
        .values([
          { id: randomUUID(), booking_id: bookingId, reviewer_id: ownerId, reviewed_id: sitterId, rating: past.ownerStars, comment: past.ownerSays, created_at: end.toISOString() },
          { id: randomUUID(), booking_id: bookingId, reviewer_id: sitterId, reviewed_id: ownerId, rating: past.sitterStars, comment: past.sitterSays, created_at: end.toISOString() },
        ])
        .execute();
    }
  });
}
