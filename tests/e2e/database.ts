import path from "node:path";
import { randomUUID } from "node:crypto";
import { execFileSync } from "node:child_process";
import Database from "better-sqlite3";
import { instantAt } from "../../app/platform/time";
import { dataDir, databaseFile } from "./data-dir";

// For what a test cannot reasonably click through, such as a day's worth of earlier likes.
function open() {
  const database = new Database(databaseFile);
  database.pragma("busy_timeout = 5000");
  return database;
}

// On placeholder accounts that never show in any deck.
export function recordLikesToday(email: string, count: number) {
  const database = open();
  try {
    const swiper = database.prepare("select id, time_zone from users where email = ?").get(email) as
      { id: string; time_zone: string } | undefined;
    if (!swiper) throw new Error(`No user ${email}`);
    const at = new Date().toISOString();
    const insertUser = database.prepare(
      "insert into users (id, email, password_hash, email_verified_at, name, phone, city, postal_code, role, bio, created_at, updated_at) values (?, ?, 'x', null, 'Placeholder', '', '', '', 'sitter', '', ?, ?)",
    );
    const insertLike = database.prepare(
      "insert into swipes (swiper_id, target_user_id, target_pet_id, decision, created_at) values (?, ?, null, 'like', ?)",
    );
    // The daily count lives on the person's record, by their local calendar day (YYYY-MM-DD).
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: swiper.time_zone }).format(new Date());
    database.transaction(() => {
      for (let index = 0; index < count; index += 1) {
        const id = randomUUID();
        insertUser.run(id, `${id}@placeholder.example.com`, at, at);
        insertLike.run(swiper.id, id, at);
      }
      database
        .prepare(
          "update users set likes_on_day = case when likes_day = ? then likes_on_day else 0 end + ?, likes_day = ? where id = ?",
        )
        .run(today, count, today, swiper.id);
    })();
  } finally {
    database.close();
  }
}

export function accountAndEmails(email: string): { account: boolean; emails: number } {
  const database = open();
  try {
    const account = database.prepare("select 1 from users where email = ?").get(email) !== undefined;
    const { n } = database.prepare("select count(*) as n from email_outbox where to_address = ?").get(email) as {
      n: number;
    };
    return { account, emails: n };
  } finally {
    database.close();
  }
}

/** A long history between two people who already have a conversation: `count` messages, alternating, an hour apart, ending an hour ago. */
export function writeHistory(
  fromEmail: string,
  toEmail: string,
  count: number,
  text = (index: number) => `Earlier note ${index}`,
) {
  const database = open();
  try {
    const idOf = (email: string) =>
      (database.prepare("select id from users where email = ?").get(email) as { id: string }).id;
    const [from, to] = [idOf(fromEmail), idOf(toEmail)];
    const [a, b] = from < to ? [from, to] : [to, from];
    const conversation = database
      .prepare("select id from conversations where user_a_id = ? and user_b_id = ?")
      .get(a, b) as { id: string } | undefined;
    if (!conversation) throw new Error("No conversation between them");
    const insert = database.prepare(
      "insert into messages (conversation_id, sender_id, body, created_at) values (?, ?, ?, ?)",
    );
    const start = Date.now() - (count + 1) * 3600_000;
    database.transaction(() => {
      for (let index = 1; index <= count; index += 1)
        insert.run(
          conversation.id,
          index % 2 ? from : to,
          text(index),
          new Date(start + index * 3600_000).toISOString(),
        );
      database
        .prepare("update conversations set last_message_at = ? where id = ?")
        .run(new Date(start + count * 3600_000).toISOString(), conversation.id);
    })();
    return conversation.id;
  } finally {
    database.close();
  }
}

/**
 * A confirmed, paid booking of the owner's pet with the sitter, starting `startsInMinutes` after the
 * server's now: a visit needs one that starts within minutes, which the booking form (whole hours,
 * inside published slots) cannot give at any time of day without moving the clock.
 */
export function confirmedBookingSoon(
  ownerEmail: string,
  sitterEmail: string,
  serverNow: Date,
  startsInMinutes: number,
  hours = 2,
): string {
  const database = open();
  try {
    const owner = database.prepare("select id from users where email = ?").get(ownerEmail) as
      { id: string } | undefined;
    const sitter = database.prepare("select id, hourly_rate_cents from users where email = ?").get(sitterEmail) as
      { id: string; hourly_rate_cents: number } | undefined;
    if (!owner || !sitter) throw new Error(`No owner ${ownerEmail} or sitter ${sitterEmail}`);
    const pet = database
      .prepare("select id, name from pets where owner_id = ? order by created_at limit 1")
      .get(owner.id) as { id: string; name: string };
    const id = randomUUID();
    const start = new Date(serverNow.getTime() + startsInMinutes * 60_000);
    const end = new Date(start.getTime() + hours * 3600_000);
    const subtotal = sitter.hourly_rate_cents * hours;
    const fee = Math.round(subtotal * 0.2);
    const at = serverNow.toISOString();
    database
      .prepare(
        `insert into bookings (id, owner_id, sitter_id, pet_id, pet_name, start_at, end_at, hours, hourly_rate_cents, subtotal_cents, fee_cents, total_cents,
          status, payment_status, payment_provider, card_label, hold_ref, confirmed_at, created_at, updated_at)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'confirmed', 'held', 'test', 'Visa •••• 4242', ?, ?, ?, ?)`,
      )
      .run(
        id,
        owner.id,
        sitter.id,
        pet.id,
        pet.name,
        start.toISOString(),
        end.toISOString(),
        hours,
        sitter.hourly_rate_cents,
        subtotal,
        fee,
        subtotal + fee,
        `hold_${id}`,
        at,
        at,
        at,
      );
    return id;
  } finally {
    database.close();
  }
}

// The operator role is given only on the server, by the same command an operator of the site runs.
export function grantOperator(email: string) {
  execFileSync(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), "scripts/admin.ts", "grant", email], {
    env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: "production", TEST_MODE: "true" },
    stdio: "pipe",
  });
}

export function userIdOf(email: string): string {
  const database = open();
  try {
    const row = database.prepare("select id from users where email = ?").get(email) as { id: string } | undefined;
    if (!row) throw new Error(`No user ${email}`);
    return row.id;
  } finally {
    database.close();
  }
}

/** The zone a member's dates are printed in: the browser's when signing up with JavaScript, else the city's. */
export function timeZoneOf(email: string): string {
  const database = open();
  try {
    const row = database.prepare("select time_zone from users where email = ?").get(email) as
      { time_zone: string } | undefined;
    if (!row) throw new Error(`No user ${email}`);
    return row.time_zone;
  } finally {
    database.close();
  }
}

export function pushDevicesOf(email: string): number {
  const database = open();
  try {
    return (
      database
        .prepare("select count(*) as n from push_subscriptions where user_id = (select id from users where email = ?)")
        .get(email) as { n: number }
    ).n;
  } finally {
    database.close();
  }
}

// Until the sitter's own form sets them: how many pets a sitter takes and what each extra one costs per hour.
export function sitterTakesPets(email: string, maxPets: number, extraPetCents: number): string {
  const database = open();
  try {
    database
      .prepare("update users set max_pets = ?, extra_pet_cents = ? where email = ?")
      .run(maxPets, extraPetCents, email);
    return (database.prepare("select id from users where email = ?").get(email) as { id: string }).id;
  } finally {
    database.close();
  }
}

// A further pet of an owner, as the pet setup form would have saved it (without photos).
export function addPetOf(email: string, name: string) {
  const database = open();
  try {
    const owner = database.prepare("select id from users where email = ?").get(email) as { id: string };
    const at = new Date().toISOString();
    database
      .prepare(
        "insert into pets (id, owner_id, name, pet_type, age, breed, temperament, energy_level, created_at, updated_at) values (?, ?, ?, 'dog', '2 years', '', '[]', 'medium', ?, ?)",
      )
      .run(randomUUID(), owner.id, name, at, at);
  } finally {
    database.close();
  }
}

// A service a sitter offers at a price, as the sitter details form saves it (that form is tested in sitter-services.spec.ts).
export function sitterOffers(
  email: string,
  service: "boarding" | "house_sitting" | "day_care" | "walk" | "drop_in",
  priceCents: number,
  minutes: number | null = null,
) {
  const database = open();
  try {
    const sitter = database.prepare("select id from users where email = ?").get(email) as { id: string };
    database
      .prepare("insert into sitter_services (sitter_id, service, price_cents, duration_minutes) values (?, ?, ?, ?)")
      .run(sitter.id, service, priceCents, minutes);
    return sitter.id;
  } finally {
    database.close();
  }
}

/**
 * `count` earlier requests of the owner's first pet with the sitter, each of whose card was saved and which the
 * sitter answered `answeredAfterMinutes` later (accepted, then completed), as the booking machine records them.
 */
export function answeredRequests(
  ownerEmail: string,
  sitterEmail: string,
  serverNow: Date,
  count: number,
  answeredAfterMinutes: number,
) {
  const database = open();
  try {
    const [owner, sitter] = [userIdOf(ownerEmail), userIdOf(sitterEmail)];
    const insertBooking = database.prepare(
      `insert into bookings (id, owner_id, sitter_id, pet_id, pet_name, start_at, end_at, hours, hourly_rate_cents, subtotal_cents, fee_cents, total_cents,
        status, payment_status, payment_provider, card_label, hold_ref, confirmed_at, completed_at, created_at, updated_at)
       values (?, ?, ?, null, 'Rex', ?, ?, 1, 1500, 1500, 300, 1800, 'completed', 'released', 'test', 'Visa •••• 4242', ?, ?, ?, ?, ?)`,
    );
    const insertHistory = database.prepare(
      `insert into booking_history (booking_id, event, actor_kind, actor_id, status_from, status_to, payment_from, payment_to, created_at)
       values (?, ?, ?, ?, 'requested', ?, 'unpaid', ?, ?)`,
    );
    const iso = (ms: number) => new Date(ms).toISOString();
    database.transaction(() => {
      for (let index = 1; index <= count; index += 1) {
        const asked = serverNow.getTime() - (10 + index) * 24 * 3600_000;
        const answered = asked + answeredAfterMinutes * 60_000;
        const start = asked + 3 * 24 * 3600_000;
        const id = randomUUID();
        insertBooking.run(
          id,
          owner,
          sitter,
          iso(start),
          iso(start + 3600_000),
          `hold_${id}`,
          iso(answered),
          iso(start + 3600_000),
          iso(asked),
          iso(start + 3600_000),
        );
        insertHistory.run(id, "card-saved", "owner", owner, "requested", "held", iso(asked));
        insertHistory.run(id, "accept", "sitter", sitter, "confirmed", "held", iso(answered));
      }
    })();
  } finally {
    database.close();
  }
}

/**
 * A completed, paid booking of `hours` hours at `time` on `day` (the sitter's wall clock) of the owner's pets named
 * `petNames` with the sitter, as it stands once the visit is done: pets listed in order, the money released.
 */
export function completedBookingOf(
  ownerEmail: string,
  sitterEmail: string,
  { day, time, hours, petNames }: { day: string; time: string; hours: number; petNames: string[] },
): string {
  const database = open();
  try {
    const owner = database.prepare("select id from users where email = ?").get(ownerEmail) as { id: string };
    const sitter = database
      .prepare("select id, time_zone, hourly_rate_cents from users where email = ?")
      .get(sitterEmail) as { id: string; time_zone: string; hourly_rate_cents: number };
    const pets = petNames.map(
      (name) =>
        database.prepare("select id, name from pets where owner_id = ? and name = ?").get(owner.id, name) as {
          id: string;
          name: string;
        },
    );
    const start = instantAt(sitter.time_zone, day, time);
    const end = new Date(start.getTime() + hours * 3600_000);
    const subtotal = sitter.hourly_rate_cents * hours;
    const fee = Math.round(subtotal * 0.2);
    const id = randomUUID();
    const iso = (at: Date) => at.toISOString();
    database.transaction(() => {
      database
        .prepare(
          `insert into bookings (id, owner_id, sitter_id, pet_id, pet_name, service_type, start_at, end_at, hours, hourly_rate_cents, subtotal_cents, fee_cents, total_cents,
            status, payment_status, payment_provider, card_label, hold_ref, confirmed_at, completed_at, created_at, updated_at)
           values (?, ?, ?, ?, ?, 'hourly', ?, ?, ?, ?, ?, ?, ?, 'completed', 'released', 'test', 'Visa •••• 4242', ?, ?, ?, ?, ?)`,
        )
        .run(
          id,
          owner.id,
          sitter.id,
          pets[0]!.id,
          pets[0]!.name,
          iso(start),
          iso(end),
          hours,
          sitter.hourly_rate_cents,
          subtotal,
          fee,
          subtotal + fee,
          `hold_${id}`,
          iso(start),
          iso(end),
          iso(start),
          iso(end),
        );
      const insertPet = database.prepare(
        "insert into booking_pets (booking_id, position, pet_id, pet_name) values (?, ?, ?, ?)",
      );
      pets.forEach((pet, position) => insertPet.run(id, position, pet.id, pet.name));
    })();
    return id;
  } finally {
    database.close();
  }
}

/** An accepted meet & greet at the sitter's home that took place `hoursAgo` hours before `serverNow`. */
export function pastMeetGreet(ownerEmail: string, sitterEmail: string, serverNow: Date, hoursAgo: number): string {
  const database = open();
  try {
    const id = randomUUID();
    const at = new Date(serverNow.getTime() - hoursAgo * 3600_000).toISOString();
    database
      .prepare(
        `insert into meet_greets (id, owner_id, sitter_id, start_at, place, place_note, status, proposed_by, created_at, updated_at)
         values (?, ?, ?, ?, 'sitters_home', '', 'accepted', 'owner', ?, ?)`,
      )
      .run(id, userIdOf(ownerEmail), userIdOf(sitterEmail), at, at, at);
    return id;
  } finally {
    database.close();
  }
}
