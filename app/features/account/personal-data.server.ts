// The account's own part of a person's data export and erasure: the emails (the outbox, the email
// tokens, address changes) and the security records (sessions, exports, rate-limit counters).
import type { PersonalDataSection } from "~/platform/personal-data.server";
import { eraseEmailTokens } from "~/features/auth/index.server";
import { endAllSessions } from "~/platform/session.server";
import { forgetCountersOf } from "~/platform/rate-limit.server";
import { eraseEmailsOf } from "~/platform/email.server";

export const emailsSection: PersonalDataSection = {
  name: "emails",
  async exportOf() {
    return undefined;
  },
  async erase(person, trx) {
    await eraseEmailsOf(person, trx);
    await eraseEmailTokens(person.id, trx);
    await trx.deleteFrom("email_changes").where("user_id", "=", person.id).execute();
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
    await endAllSessions(person.id, trx);
    await trx.deleteFrom("data_exports").where("user_id", "=", person.id).execute();
    // Rate-limit and back-off counters are keyed by address or id.
    await forgetCountersOf([person.email.toLowerCase(), person.id], trx);
  },
};
