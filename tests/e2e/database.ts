import path from "node:path";
import { randomUUID } from "node:crypto";
import { execFileSync } from "node:child_process";
import Database from "better-sqlite3";

// For what a test cannot reasonably click through, such as a day's worth of earlier likes.
function open() {
  const database = new Database(path.resolve("tests/.tmp/e2e-data/trusted-sitters.db"));
  database.pragma("busy_timeout = 5000");
  return database;
}

// On placeholder accounts that never show in any deck.
export function recordLikesToday(email: string, count: number) {
  const database = open();
  try {
    const swiper = database.prepare("select id, time_zone from users where email = ?").get(email) as { id: string; time_zone: string } | undefined;
    if (!swiper) throw new Error(`No user ${email}`);
    const at = new Date().toISOString();
    const insertUser = database.prepare(
      "insert into users (id, email, password_hash, email_verified_at, name, phone, city, postal_code, role, bio, created_at, updated_at) values (?, ?, 'x', null, 'Placeholder', '', '', '', 'sitter', '', ?, ?)",
    );
    const insertLike = database.prepare("insert into swipes (swiper_id, target_user_id, target_pet_id, decision, created_at) values (?, ?, null, 'like', ?)");
    // The daily count lives on the person's record, by their local calendar day (YYYY-MM-DD).
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: swiper.time_zone }).format(new Date());
    database.transaction(() => {
      for (let index = 0; index < count; index += 1) {
        const id = randomUUID();
        insertUser.run(id, `${id}@placeholder.example.com`, at, at);
        insertLike.run(swiper.id, id, at);
      }
      database
        .prepare("update users set likes_on_day = case when likes_day = ? then likes_on_day else 0 end + ?, likes_day = ? where id = ?")
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
    const { n } = database.prepare("select count(*) as n from email_outbox where to_address = ?").get(email) as { n: number };
    return { account, emails: n };
  } finally {
    database.close();
  }
}

// The operator role is given only on the server, by the same command an operator of the site runs.
export function grantOperator(email: string) {
  execFileSync(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), "scripts/admin.ts", "grant", email], {
    env: { ...process.env, DATA_DIR: path.resolve("tests/.tmp/e2e-data"), NODE_ENV: "test" },
    stdio: "pipe",
  });
}
