import nodemailer, { type Transporter } from "nodemailer";
import type { Kysely } from "kysely";
import type { Database } from "~db/schema";
import { checkpointDatabase, db, flag } from "./db.server";
import { env } from "./env.server";
import { backoffDelayMs, oneDeliveryAtATime } from "./exclusive.server";
import { now, nowIso } from "./clock.server";
import { emailColumnOf, unsubscribeUrl, type EmailKind } from "./unsubscribe.server";
import { logger } from "./log.server";
import { counterpartsOf, mentions, scrubbed, type ErasedPerson } from "./personal-data.server";

export interface Email {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** News of this kind for this person: sent only if they want it by email, with an unsubscribe link. */
  news?: { userId: string; kind: EmailKind; unsubscribeUrl: string };
  /** Wipe the address and text once delivered (an erased account's last email). */
  purgeAfterSend?: boolean;
}

// Written inside the caller's transaction, so an email exists exactly when the change that caused it does.
// News is written only when its person wants that kind by email: the one place preferences are honoured.
export async function enqueueEmail(email: Email, database: Kysely<Database> = db): Promise<boolean> {
  if (email.news) {
    const column = emailColumnOf(email.news.kind);
    const person = await database
      .selectFrom("users")
      .select([column, "deleted_at"])
      .where("id", "=", email.news.userId)
      .executeTakeFirst();
    if (!person || person.deleted_at || person[column] !== 1) return false;
  }
  await database
    .insertInto("email_outbox")
    .values({
      to_address: email.to,
      subject: email.subject,
      text_body: email.text,
      html_body: email.html,
      unsubscribe_url: email.news?.unsubscribeUrl ?? null,
      purge_after_send: flag.write(email.purgeAfterSend === true),
      created_at: nowIso(),
    })
    .execute();
  return true;
}

// RFC 8058: a mail client may offer its own button, which POSTs "List-Unsubscribe=One-Click" to the address.
export function unsubscribeHeaders(url: string | null): Record<string, string> {
  return url ? { "List-Unsubscribe": `<${url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } : {};
}

// nodemailer's defaults (2 and 10 minutes) would let a hanging mail server hold every delivery that long.
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;

let transporter: Transporter | null = null;
function smtp(): Transporter | null {
  if (!env.SMTP_URL) return null;
  transporter ??= nodemailer.createTransport({ ...SMTP_TIMEOUTS, url: env.SMTP_URL }, { from: env.EMAIL_FROM });
  return transporter;
}

const REFUSED_THIS_EMAIL = new Set(["EENVELOPE", "EMESSAGE"]);

export const RETRY = { firstDelayMs: 60_000, maxDelayMs: 3_600_000, giveUpAfterMs: 24 * 3_600_000 } as const;

export const nextTryDelayMs = (attempts: number) => backoffDelayMs(attempts, RETRY);

// Another instance delivering now may have read its batch before this email was stored: it waits for it, then reads ours.
export const deliverPendingEmails = oneDeliveryAtATime("email-delivery", () => deliverBatch());

async function deliverBatch(): Promise<void> {
  const transport = smtp();
  if (!transport) return;
  const pending = await db
    .selectFrom("email_outbox")
    .selectAll()
    .where("sent_at", "is", null)
    .where("failed_at", "is", null)
    .where((eb) => eb.or([eb("next_try_at", "is", null), eb("next_try_at", "<=", nowIso())]))
    .orderBy("id")
    .limit(50)
    .execute();
  for (const email of pending) {
    try {
      await transport.sendMail({
        to: email.to_address,
        subject: email.subject,
        text: email.text_body,
        html: email.html_body,
        headers: unsubscribeHeaders(email.unsubscribe_url),
      });
      const wiped = email.purge_after_send ? { to_address: "", subject: "", text_body: "", html_body: "" } : {};
      await db
        .updateTable("email_outbox")
        .set({ sent_at: nowIso(), last_error: null, next_try_at: null, ...wiped })
        .where("id", "=", email.id)
        .execute();
      // The erased account's address must not linger in the log's older page versions either.
      if (email.purge_after_send) await checkpointDatabase();
    } catch (error) {
      const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
      const thisEmail = typeof code === "string" && REFUSED_THIS_EMAIL.has(code);
      await recordFailure(email, error, thisEmail && typeof responseCode === "number" && responseCode >= 500);
      // A server that is down would make every other email wait for its own timeout: stop until the next try.
      if (!thisEmail) return;
    }
  }
}

async function recordFailure(
  email: { id: number; attempts: number; created_at: string },
  error: unknown,
  refusedForGood: boolean,
) {
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
  const at = now();
  const attempts = email.attempts + 1;
  const giveUp = refusedForGood || at.getTime() - Date.parse(email.created_at) >= RETRY.giveUpAfterMs;
  await db
    .updateTable("email_outbox")
    .set({
      last_error: message,
      attempts,
      next_try_at: giveUp ? null : new Date(at.getTime() + nextTryDelayMs(attempts)).toISOString(),
      failed_at: giveUp ? at.toISOString() : null,
    })
    .where("id", "=", email.id)
    .execute();
  if (giveUp) logger.error({ event: "email.failed", emailId: email.id, attempts, error: message }, "Email given up");
}

export function deliverSoon(): void {
  deliverPendingEmails().catch((error: unknown) =>
    logger.error({ event: "email.delivery-failed", err: error }, "Email delivery failed"),
  );
}

// Never a request's Host header, which whoever sends the request chooses.
export function publicOrigin(): string {
  return env.APP_URL;
}

export interface EmailRecipient {
  email: string;
  name: string;
  language: string;
  time_zone: string;
}

export interface EmailContent {
  to: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  footer: string;
  /** News of a kind the person may turn off: the email carries a one-click unsubscribe link. */
  news?: { userId: string; kind: EmailKind; label: string };
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export function composeEmail(content: EmailContent): Email {
  const news = content.news
    ? {
        userId: content.news.userId,
        kind: content.news.kind,
        unsubscribeUrl: unsubscribeUrl(content.news.userId, content.news.kind),
      }
    : undefined;
  const unsubscribe = content.news && news ? { label: content.news.label, url: news.unsubscribeUrl } : null;
  const text = [
    content.greeting,
    "",
    ...content.paragraphs.flatMap((p) => [p, ""]),
    ...(content.action ? [`${content.action.label}: ${content.action.url}`, ""] : []),
    content.footer,
    ...(unsubscribe ? ["", `${unsubscribe.label}: ${unsubscribe.url}`] : []),
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2937;max-width:560px;margin:auto;padding:24px">
<p>${escapeHtml(content.greeting)}</p>
${content.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("\n")}
${
  content.action
    ? `<p><a href="${escapeHtml(content.action.url)}" style="display:inline-block;background:#0f766e;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none">${escapeHtml(content.action.label)}</a></p>
<p style="font-size:13px;color:#4b5563">${escapeHtml(content.action.url)}</p>`
    : ""
}
<p style="font-size:13px;color:#4b5563">${escapeHtml(content.footer)}</p>
${unsubscribe ? `<p style="font-size:13px"><a href="${escapeHtml(unsubscribe.url)}" style="color:#4b5563">${escapeHtml(unsubscribe.label)}</a></p>` : ""}
</body></html>`;
  return { to: content.to, subject: content.subject, text, html, ...(news ? { news } : {}) };
}

/**
 * An erased person's emails: those to them go; those to the people they dealt with keep their text with the
 * person's name, address and phone taken out (the HTML body with the name as it was written there, escaped).
 */
export async function eraseEmailsOf(person: ErasedPerson, trx: Kysely<Database>): Promise<void> {
  await trx.deleteFrom("email_outbox").where("to_address", "=", person.email).execute();
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
}
