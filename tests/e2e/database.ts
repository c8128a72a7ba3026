import path from "node:path";
import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";

/**
 * Direct access to the end-to-end server's database (tests/e2e/start-server.js) for setting up
 * what a test cannot reasonably click through, such as a day's worth of earlier likes.
 */
function open() {
  const database = new Database(path.resolve("tests/.tmp/e2e-data/trusted-sitters.db"));
  database.pragma("busy_timeout = 5000");
  return database;
}

/** Records `count` likes given today by the person with this email, on placeholder accounts that never show in any deck. */
export function recordLikesToday(email: string, count: number) {
  const database = open();
  try {
    const swiper = database.prepare("select id from users where email = ?").get(email) as { id: string } | undefined;
    if (!swiper) throw new Error(`No user ${email}`);
    const at = new Date().toISOString();
    const insertUser = database.prepare(
      "insert into users (id, email, password_hash, email_verified_at, name, phone, city, postal_code, role, bio, created_at, updated_at) values (?, ?, 'x', null, 'Placeholder', '', '', '', 'sitter', '', ?, ?)",
    );
    const insertLike = database.prepare("insert into swipes (swiper_id, target_user_id, target_pet_id, decision, created_at) values (?, ?, null, 'like', ?)");
    database.transaction(() => {
      for (let index = 0; index < count; index += 1) {
        const id = randomUUID();
        insertUser.run(id, `${id}@placeholder.example.com`, at, at);
        insertLike.run(swiper.id, id, at);
      }
    })();
  } finally {
    database.close();
  }
}
