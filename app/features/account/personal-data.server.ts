// The account's own part of a person's data export and erasure: the emails (the outbox, the email
// tokens, address changes) and the security records (sessions, exports, rate-limit counters).
import { counterpartsOf, mentions, scrubbed, type PersonalDataSection } from "~/platform/personal-data.server";
import { eraseEmailTokens } from "~/features/auth/index.server";

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export const emailsSection: PersonalDataSection = {
  name: "emails",
  async exportOf() {
    return undefined;
  },
  async erase(person, trx) {
    await trx.deleteFrom("email_outbox").where("to_address", "=", person.email).execute();
    await eraseEmailTokens(person.id, trx);
    await trx.deleteFrom("email_changes").where("user_id", "=", person.id).execute();
    const others = await counterpartsOf(person.id, trx);
    if (others.length === 0 || !person.name) return;
    const addresses = trx.selectFrom("users").select("email").where("id", "in", others);
    for (const [column, name] of [
      ["subject", person.name],
      ["text_body", person.name],
      ["html_body", escapeHtml(person.name)],
    ] as const) {
      await trx
        .updateTable("email_outbox")
        .set({ [column]: scrubbed(column, person, name) })
        .where("to_address", "in", addresses)
        .where(mentions(column, person, name))
        .execute();
    }
  },
};

export const securitySection: PersonalDataSection = {
  name: "security",
  async exportOf(userId, database) {
    return {
      sessions: await database
        .selectFrom("sessions")
        .select(["created_at", "last_seen_at", "expires_at"])
        .where("user_id", "=", userId)
        .execute(),
    };
  },
  async erase(person, trx) {
    await trx.deleteFrom("sessions").where("user_id", "=", person.id).execute();
    await trx.deleteFrom("data_exports").where("user_id", "=", person.id).execute();
    const email = person.email.toLowerCase();
    // Rate-limit and back-off counters are keyed by address or id.
    for (const table of ["rate_limits", "rate_limit_hits", "backoffs"] as const) {
      await trx
        .deleteFrom(table)
        .where((eb) => eb.or([eb("key", "like", `%${email}%`), eb("key", "like", `%${person.id}%`)]))
        .execute();
    }
  },
};
