import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { db } from "~/platform/db.server";
import { recordAudit } from "~/platform/audit.server";
import { requireAdmin } from "~/platform/operator.server";
import { getUser } from "~/platform/session.server";
import { context } from "~/testing/browser";
import { person } from "~/testing/people";
import { loader as adminLayoutLoader } from "~/routes/admin-layout";
import { setAdmin } from "./roles.server";

const asking = (cookie?: string) =>
  new Request("http://localhost/admin", { headers: cookie ? { Cookie: cookie } : {} });

async function statusOf(run: () => Promise<unknown>): Promise<number> {
  try {
    await run();
    return 200;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    throw thrown;
  }
}

describe("the audit log", () => {
  it("keeps every row as written: the database refuses UPDATE and DELETE, even as raw SQL", async () => {
    const operator = await person("owner", { columns: { is_admin: 1 } });
    await recordAudit(db, {
      operatorId: operator.id,
      action: "test.act",
      subjectType: "user",
      subjectId: operator.id,
      reason: "  because  ",
      details: { n: 1 },
    });
    const row = await db
      .selectFrom("audit_log")
      .selectAll()
      .where("operator_id", "=", operator.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ action: "test.act", reason: "because", details: '{"n":1}' });
    await expect(
      db.updateTable("audit_log").set({ reason: "rewritten" }).where("id", "=", row.id).execute(),
    ).rejects.toThrow(/append-only/);
    await expect(db.deleteFrom("audit_log").where("id", "=", row.id).execute()).rejects.toThrow(/append-only/);
    await expect(sql`delete from audit_log`.execute(db)).rejects.toThrow(/append-only/);
    expect(await db.selectFrom("audit_log").selectAll().where("id", "=", row.id).executeTakeFirst()).toEqual(row);
  });

  it("refuses an action without a reason", async () => {
    await expect(
      recordAudit(db, { operatorId: null, action: "x", subjectType: "user", subjectId: "x", reason: "   " }),
    ).rejects.toThrow();
  });
});

describe("the operator role", () => {
  it("is given and taken only by setAdmin (the admin:grant and admin:revoke commands), each change audited", async () => {
    const member = await person("owner", { email: `Grant-${Date.now()}@Example.com` });
    expect(await setAdmin(member.email.toUpperCase(), true)).toEqual({ status: "granted", userId: member.id });
    expect(await setAdmin(member.email, true)).toEqual({ status: "unchanged", userId: member.id });
    expect(
      (await db.selectFrom("users").select("is_admin").where("id", "=", member.id).executeTakeFirstOrThrow()).is_admin,
    ).toBe(1);
    expect(await setAdmin(member.email, false)).toEqual({ status: "revoked", userId: member.id });
    expect(await setAdmin("nobody-here@example.com", true)).toEqual({ status: "unknown" });
    const actions = await db
      .selectFrom("audit_log")
      .select(["action", "operator_id"])
      .where("subject_id", "=", member.id)
      .orderBy("id")
      .execute();
    expect(actions).toEqual([
      { action: "admin.grant", operator_id: null },
      { action: "admin.revoke", operator_id: null },
    ]);
  });

  it("opens the console to operators only: 404 to visitors, members and suspended operators", async () => {
    const member = await person("both", { signedIn: true });
    const operator = await person("owner", { signedIn: true, columns: { is_admin: 1 } });
    const suspended = await person("owner", {
      signedIn: true,
      columns: { is_admin: 1, suspended_at: new Date().toISOString(), suspension_reason: "x" },
    });
    expect(await statusOf(() => requireAdmin(asking()))).toBe(404);
    expect(await statusOf(() => requireAdmin(asking(member.cookie)))).toBe(404);
    expect(await statusOf(() => requireAdmin(asking(suspended.cookie)))).toBe(404);
    expect(
      await statusOf(() => adminLayoutLoader({ request: asking(member.cookie), params: {}, context: context() })),
    ).toBe(404);
    expect((await requireAdmin(asking(operator.cookie))).id).toBe(operator.id);
    expect(await adminLayoutLoader({ request: asking(operator.cookie), params: {}, context: context() })).toMatchObject(
      { operatorName: operator.name },
    );
  });

  it("gives a suspended person's cookie nothing", async () => {
    const member = await person("owner", { signedIn: true });
    expect((await getUser(asking(member.cookie)))?.id).toBe(member.id);
    await db.updateTable("users").set({ suspended_at: new Date().toISOString() }).where("id", "=", member.id).execute();
    expect(await getUser(asking(member.cookie))).toBeNull();
  });
});
