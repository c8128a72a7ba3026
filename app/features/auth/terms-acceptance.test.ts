import { describe, expect, it } from "vitest";
import { profilePage } from "~/features/profiles/index.server";
import { now } from "~/platform/clock.server";
import { db } from "~/platform/db.server";
import { advanceClock, DAY, resetClockAfterEach } from "~/testing/clock";
import { person, signupInput } from "~/testing/people";
import { signUp } from "./accounts.server";

resetClockAfterEach();

describe("accepting the terms at sign-up", () => {
  it("stores the moment of sign-up as the date the terms and privacy policy were accepted, and the profile shows it", async () => {
    advanceClock(3 * DAY);
    const before = now().toISOString();
    const input = signupInput();
    const result = await signUp(input, "en");
    const after = now().toISOString();
    expect(result.status).toBe("created");
    const row = await db
      .selectFrom("users")
      .select(["id", "terms_accepted_at", "created_at"])
      .where("email", "=", input.email)
      .executeTakeFirstOrThrow();
    const at = row.terms_accepted_at!;
    expect(at >= before && at <= after, `${before} ≤ ${at} ≤ ${after}`).toBe(true);
    expect(at).toBe(row.created_at);

    const user = await db.selectFrom("users").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow();
    expect((await profilePage(user, false)).user.termsAcceptedAt).toBe(at);
  });

  it("leaves an existing account's acceptance as it was when its address signs up again", async () => {
    const input = signupInput();
    expect((await signUp(input, "en")).status).toBe("created");
    const first = await db
      .selectFrom("users")
      .select("terms_accepted_at")
      .where("email", "=", input.email)
      .executeTakeFirstOrThrow();
    advanceClock(DAY);
    expect((await signUp({ ...input, name: "Someone else" }, "en")).status).toBe("email-taken");
    const after = await db
      .selectFrom("users")
      .select("terms_accepted_at")
      .where("email", "=", input.email)
      .executeTakeFirstOrThrow();
    expect(after.terms_accepted_at).toBe(first.terms_accepted_at);
  });

  it("records nothing for accounts made before the date was kept", async () => {
    const older = await person("owner");
    const row = await db.selectFrom("users").selectAll().where("id", "=", older.id).executeTakeFirstOrThrow();
    expect(row.terms_accepted_at).toBeNull();
    expect((await profilePage(row, false)).user.termsAcceptedAt).toBeNull();
  });
});
