import { db, flag, lockedForDecision } from "~/platform/db.server";
import { recordAudit } from "~/platform/audit.server";
import { nowIso } from "~/platform/clock.server";

export type RoleChange = { status: "granted" | "revoked" | "unchanged"; userId: string } | { status: "unknown" };

/**
 * Gives or takes the operator role. Only a command run on the server calls this (there is no
 * page for it), so nobody can make themselves an operator from a browser. Audited with no operator.
 */
export async function setAdmin(email: string, admin: boolean): Promise<RoleChange> {
  const address = email.trim().toLowerCase();
  return db.transaction().execute(async (trx): Promise<RoleChange> => {
    const user = await trx
      .selectFrom("users")
      .select(["id", "is_admin"])
      .where((eb) => eb(eb.fn("lower", ["email"]), "=", address))
      .$call(lockedForDecision)
      .executeTakeFirst();
    if (!user) return { status: "unknown" };
    if (flag.read(user.is_admin) === admin) return { status: "unchanged", userId: user.id };
    await trx
      .updateTable("users")
      .set({ is_admin: flag.write(admin), updated_at: nowIso() })
      .where("id", "=", user.id)
      .execute();
    await recordAudit(trx, {
      operatorId: null,
      action: admin ? "admin.grant" : "admin.revoke",
      subjectType: "user",
      subjectId: user.id,
      reason: admin ? "npm run admin:grant" : "npm run admin:revoke",
    });
    return { status: admin ? "granted" : "revoked", userId: user.id };
  });
}
