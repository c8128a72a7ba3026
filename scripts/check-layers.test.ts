import { describe, expect, it } from "vitest";
import { layerProblems, ROUTE_MAX_LINES } from "./check-layers";

const tree = (files: Record<string, string>) => layerProblems(new Map(Object.entries(files)));
const rules = (files: Record<string, string>) => tree(files).map((problem) => problem.rule);

describe("the layer check", () => {
  it("accepts routes and features that go down through entry files", () => {
    expect(
      tree({
        "app/routes/bookings.tsx": `import { listBookings } from "~/features/bookings/index.server";\nimport { BookingCard } from "~/features/bookings";`,
        "app/features/bookings/index.server.ts": `export { listBookings } from "./bookings.server";`,
        "app/features/bookings/bookings.server.ts": `import { db } from "~/platform/db.server";\nimport { payerCustomer } from "../payments/index.server";`,
        "app/features/payments/index.server.ts": `export { payerCustomer } from "./customers.server";`,
        "app/platform/db.server.ts": `import type { Database } from "~db/schema";`,
        "app/jobs.server.ts": `import { runDueBookingWork } from "~/features/bookings/index.server";`,
      }),
    ).toEqual([]);
  });

  it("refuses a platform or db module that imports a feature, a route or the composition", () => {
    expect(
      rules({
        "app/platform/lifecycle.server.ts": `import { runDueBookingWork } from "~/features/bookings/index.server";`,
      }),
    ).toEqual(["upward"]);
    expect(rules({ "db/seed.ts": `import { hashPassword } from "~/features/auth/index.server";` })).toEqual(["upward"]);
    expect(rules({ "app/features/auth/emails.server.ts": `import { startApp } from "~/jobs.server";` })).toEqual([
      "upward",
    ]);
  });

  it("refuses a feature file reached past its entry from outside the feature", () => {
    expect(
      rules({ "app/routes/profile.tsx": `import { getPublicProfile } from "~/features/profiles/profiles.server";` }),
    ).toEqual(["entry"]);
    expect(
      rules({
        "app/features/bookings/views.server.ts": `const { notify } = await import("../notifications/notifications.server");`,
      }),
    ).toEqual(["entry"]);
  });

  it("lets a feature's own files and tests import its internals", () => {
    expect(
      tree({
        "app/features/bookings/views.server.ts": `import { decide } from "./machine";`,
        "app/access-matrix.test.ts": `import { transition } from "~/features/bookings/transitions.server";`,
      }),
    ).toEqual([]);
  });

  it("keeps app/testing/ to tests: they may use it, production code may not", () => {
    expect(
      tree({
        "app/features/bookings/bookings.test.ts": `import { person } from "~/testing/people";`,
        "app/testing/bookings.ts": `import { person } from "./people";\nimport { requestBooking } from "~/features/bookings/index.server";`,
      }),
    ).toEqual([]);
    expect(rules({ "app/features/bookings/bookings.server.ts": `import { person } from "~/testing/people";` })).toEqual(
      ["test-only"],
    );
    expect(rules({ "app/demo/seed.server.ts": `import { card } from "../testing/bookings";` })).toEqual(["test-only"]);
    expect(rules({ "scripts/db.ts": `const { person } = await import("~/testing/people");` })).toEqual(["test-only"]);
  });

  it("names the features that depend on each other in a circle, two or more", () => {
    const twoWay = tree({
      "app/features/pets/pet-form.tsx": `import { BREEDS } from "~/features/profiles";`,
      "app/features/profiles/profiles.server.ts": `import { petsOf } from "../pets/index.server";`,
    });
    expect(twoWay).toHaveLength(1);
    expect(twoWay[0]?.rule).toBe("cycle");
    expect(twoWay[0]?.message).toContain("pets, profiles");

    const threeWay = rules({
      "app/features/a/x.server.ts": `import { b } from "~/features/b/index.server";`,
      "app/features/b/x.server.ts": `import { c } from "~/features/c/index.server";`,
      "app/features/c/x.server.ts": `export { a } from "~/features/a/index.server";`,
    });
    expect(threeWay).toEqual(["cycle"]);
  });

  it("refuses a route longer than the limit", () => {
    const long = Array.from({ length: ROUTE_MAX_LINES + 1 }, () => "const line = 1;").join("\n");
    expect(rules({ "app/routes/long.tsx": long })).toEqual(["route-size"]);
  });

  it("lets only a table's owner write it: the feature whose db/schema file declares it, or the platform", () => {
    const schema = {
      "db/schema/bookings.ts": `export interface BookingTables {\n  bookings: BookingsTable;\n  booking_pets: BookingPetsTable;\n}`,
      "db/schema/platform.ts": `export interface PlatformTables {\n  sessions: SessionsTable;\n}`,
      "db/schema/auth.ts": `export interface AuthTables {\n  users: UsersTable;\n}`,
    };
    expect(
      tree({
        ...schema,
        "app/features/bookings/bookings.server.ts": `await trx.insertInto("bookings").values(row).execute();\nawait trx.deleteFrom("booking_pets");`,
        "app/platform/session.server.ts": `await db.deleteFrom("sessions").where("user_id", "=", id).execute();`,
        // The person's row is shared on purpose (SHARED_TABLES).
        "app/features/profiles/profiles.server.ts": `await db.updateTable("users").set({ bio }).execute();`,
        "app/features/bookings/bookings.test.ts": `await db.updateTable("sessions").set({}).execute();`,
      }),
    ).toEqual([]);
    const problems = tree({
      ...schema,
      "app/features/admin/reports.server.ts": `const x = 1;\nawait trx\n  .updateTable("bookings as b")\n  .set({ status: "cancelled" });`,
      "app/features/auth/accounts.server.ts": `await trx.deleteFrom("sessions").execute();`,
      "app/platform/lifecycle.server.ts": `await db.deleteFrom("booking_pets").execute();`,
      "app/routes/bookings.tsx": `await db.insertInto("bookings").values(row).execute();`,
      "app/features/bookings/stray.server.ts": `await db.insertInto("unknown_table").values(row).execute();`,
    });
    expect(problems.map((problem) => problem.rule)).toEqual(["owner", "owner", "owner", "owner", "owner"]);
    expect(problems.map((problem) => problem.message)).toEqual([
      "app/features/admin/reports.server.ts:3 writes bookings, which features/bookings owns: ask it through its entry",
      "app/features/auth/accounts.server.ts:1 writes sessions, which app/platform owns: ask it through its entry",
      "app/platform/lifecycle.server.ts:1 writes booking_pets, which features/bookings owns: ask it through its entry",
      "app/routes/bookings.tsx:1 writes bookings, which features/bookings owns: ask it through its entry",
      "app/features/bookings/stray.server.ts:1 writes unknown_table, which no db/schema/<owner>.ts declares",
    ]);
  });
});
