import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import type { Database } from "~db/schema";
import { withAdvisoryLock } from "./exclusive.server";

// Each Kysely stands for one app instance with its own pool. Runs when TEST_DATABASE_URL names a PostgreSQL database.
const url = process.env.TEST_DATABASE_URL;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!url)(
  "scheduler rounds claimed across instances with PostgreSQL advisory locks (TEST_DATABASE_URL)",
  () => {
    const instances: Kysely<Database>[] = [];
    const instance = () => {
      const pool = new pg.Pool({ connectionString: url, max: 3, application_name: "scheduler test" });
      // A connection ended by the server (the test that kills an instance) must not throw: idle ones are
      // reported by the pool, checked-out ones (the lock holder's, between queries) by the client itself.
      pool.on("error", () => undefined);
      pool.on("connect", (client) => client.on("error", () => undefined));
      const database = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
      instances.push(database);
      return database;
    };
    afterAll(async () => {
      for (const database of instances) await database.destroy();
    });

    it("five instances ticking at once: one does the round, the others skip it; the next round can be done again", async () => {
      const name = `job:round-${Math.random()}`;
      const all = Array.from({ length: 5 }, instance);
      let runs = 0;
      const round = () =>
        Promise.all(
          all.map((database) =>
            withAdvisoryLock(database, name, async () => {
              runs += 1;
              await pause(200);
              return "done";
            }),
          ),
        );
      const outcomes = await round();
      expect(outcomes.filter((outcome) => outcome.ran)).toEqual([{ ran: true, value: "done" }]);
      expect(runs).toBe(1);
      expect((await round()).filter((outcome) => outcome.ran)).toHaveLength(1);
      expect(runs).toBe(2);
    });

    it("each due task is done once when instances' rounds overlap: the round claims, the work re-checks", async () => {
      const [a, b] = [instance(), instance()];
      const due = new Set(Array.from({ length: 20 }, (_, i) => i));
      const done: number[] = [];
      const doDue = async () => {
        for (const task of [...due]) {
          await pause(5);
          if (!due.delete(task)) continue;
          done.push(task);
        }
      };
      // Rounds start at staggered times on both instances, as their timers do.
      await Promise.all(
        [0, 30, 60, 90].flatMap((delay) =>
          [a, b].map(async (database) =>
            pause(delay).then(() => withAdvisoryLock(database, "job:due-tasks-test", doDue)),
          ),
        ),
      );
      expect(done.sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    });

    it("with wait, the second instance runs after the first has finished (email batches), never alongside", async () => {
      const [a, b] = [instance(), instance()];
      const name = `email-${Math.random()}`;
      const log: string[] = [];
      const work = (who: string) => async () => {
        log.push(`${who} starts`);
        await pause(150);
        log.push(`${who} ends`);
      };
      const first = withAdvisoryLock(a, name, work("a"), { wait: true });
      await pause(30);
      const second = withAdvisoryLock(b, name, work("b"), { wait: true });
      expect((await Promise.all([first, second])).map((outcome) => outcome.ran)).toEqual([true, true]);
      expect(log).toEqual(["a starts", "a ends", "b starts", "b ends"]);
    });

    it("a round that fails lets go of the lock, and other jobs' locks are independent", async () => {
      const [a, b] = [instance(), instance()];
      await expect(
        withAdvisoryLock(a, "job:fails", async () => Promise.reject(new Error("processor down"))),
      ).rejects.toThrow("processor down");
      expect(await withAdvisoryLock(b, "job:fails", async () => "after")).toEqual({ ran: true, value: "after" });
      const holding = withAdvisoryLock(a, "job:one", () => pause(200));
      await pause(30);
      expect(await withAdvisoryLock(b, "job:other", async () => "free")).toEqual({ ran: true, value: "free" });
      expect(await withAdvisoryLock(b, "job:one", async () => "busy")).toEqual({ ran: false });
      await holding;
    });

    it("an instance that dies mid-round (its connection gone) frees the round for the others", async () => {
      const [a, b] = [instance(), instance()];
      const name = `job:dies-${Math.random()}`;
      let release = () => {};
      const stuck = withAdvisoryLock(a, name, () => new Promise<void>((resolve) => (release = resolve)));
      await pause(50);
      expect(await withAdvisoryLock(b, name, async () => "twice")).toEqual({ ran: false });
      await sql`select pg_terminate_backend(l.pid) from pg_locks l join pg_stat_activity s on s.pid = l.pid
      where l.locktype = 'advisory' and s.datname = current_database() and s.pid <> pg_backend_pid()`.execute(b);
      await pause(50);
      expect(await withAdvisoryLock(b, name, async () => "taken over")).toEqual({ ran: true, value: "taken over" });
      release();
      await stuck.catch(() => undefined);
    });
  },
);
