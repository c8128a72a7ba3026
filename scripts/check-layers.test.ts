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
});
