import { describe, expect, it } from "vitest";
import { ACCOUNT_FORMS } from "~/testing/hostile-input/accounts";
import { BOOKING_FORMS } from "~/testing/hostile-input/bookings";
import { MEMBER_FORMS } from "~/testing/hostile-input/members";
import { PAYMENT_AND_OPERATOR_FORMS } from "~/testing/hostile-input/payments-and-operators";
import { routesWithAction } from "~/testing/hostile-input/suite";

// The forms are posted in four files, which vitest runs side by side, each on a database of its own.
const AREAS = [ACCOUNT_FORMS, BOOKING_FORMS, MEMBER_FORMS, PAYMENT_AND_OPERATOR_FORMS];

describe("hostile input", () => {
  it("covers every route that has an action, each in one area", async () => {
    const withAction = await routesWithAction();
    const covered = AREAS.flatMap((forms) => Object.keys(forms));
    expect(
      withAction.filter((file) => !covered.includes(file)),
      "routes with an action missing from the hostile-input forms",
    ).toEqual([]);
    expect(
      covered.filter((file) => !withAction.includes(file)),
      "hostile-input forms of routes without an action",
    ).toEqual([]);
    expect(new Set(covered).size, "a route in two areas").toBe(covered.length);
  });
});
