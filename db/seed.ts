import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { hashPassword } from "~/features/auth/passwords.server";
import type { Database, Role } from "./schema";

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
  await db.transaction().execute(async (trx) => {
    for (const person of people) {
      const email = demoEmail(person.name, person.role);
      const existing = await trx.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
      if (existing) continue;
      await trx
        .insertInto("users")
        .values({
          id: randomUUID(),
          email,
          password_hash: passwordHash,
          email_verified_at: at,
          name: person.name,
          phone: "+34 600 000 000",
          city: person.city,
          postal_code: person.postalCode,
          role: person.role,
          bio: person.bio,
          latitude: person.latitude,
          longitude: person.longitude,
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
  });
  return logins;
}
