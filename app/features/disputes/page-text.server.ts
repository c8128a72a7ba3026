import { dateTimeFormat } from "~/platform/format";
import { formatMoney } from "~/platform/money";
import type { UploadProblem } from "~/features/media/index.server";
import type { problemPage } from "./views.server";
import type { DisputePostView, PaymentRecordView } from "./views.server";
import type { bookingForOperator } from "./operator-bookings.server";
import type { ShownHistoryEntry } from "./booking-history";

const UPLOAD_MESSAGES: Record<UploadProblem, string> = {
  "media.tooLarge": "disputes:errors.photoTooLarge",
  "media.tooMany": "disputes:errors.photoTooMany",
  "media.notAnImage": "disputes:errors.photoInvalid",
  "media.badRequest": "disputes:errors.photoInvalid",
};

/** A reply conform shows above the form, for uploads refused before any field was read. */
export const uploadProblemReply = (problem: UploadProblem) => ({
  status: "error" as const,
  error: { "": [UPLOAD_MESSAGES[problem]] },
});

export function postsText(posts: DisputePostView[], language: string, timeZone: string) {
  const format = dateTimeFormat(language, { dateStyle: "medium", timeStyle: "short", timeZone });
  return posts.map((post) => ({ ...post, when: format.format(new Date(post.createdAt)) }));
}

export function disputePageText(
  page: NonNullable<Awaited<ReturnType<typeof problemPage>>>,
  language: string,
  timeZone: string,
) {
  const money = (cents: number) => formatMoney(cents, language);
  return {
    ...page,
    booking: {
      ...page.booking,
      when: dateTimeFormat(language, { dateStyle: "medium", timeStyle: "short", timeZone }).format(
        new Date(page.booking.startAt),
      ),
    },
    dispute: page.dispute ? { ...page.dispute, refundText: money(page.dispute.refundCents ?? 0) } : null,
    moneyText: moneyText(page.money, language),
    posts: postsText(page.posts, language, timeZone),
  };
}

export function moneyText(money: PaymentRecordView, language: string) {
  const format = (cents: number) => formatMoney(cents, language);
  return {
    total: format(money.priceCents),
    paid: format(money.paidCents),
    refunded: format(money.refundedCents),
    sitter: format(money.sitterKeepsCents),
    fee: format(money.platformFeeCents),
  };
}

type HistoryRow =
  Awaited<ReturnType<typeof bookingForOperator>> extends infer Found
    ? Found extends { history: (infer Row)[] }
      ? Row
      : never
    : never;

export function historyText(rows: HistoryRow[], language: string, timeZone: string): ShownHistoryEntry[] {
  const format = dateTimeFormat(language, { dateStyle: "medium", timeStyle: "medium", timeZone });
  return rows.map((row) => {
    const cents = row.detail.amountCents ?? row.detail.refundCents;
    return {
      id: row.id,
      event: row.event,
      actorKind: row.actor_kind,
      actorName: row.actor_name,
      statusFrom: row.status_from,
      statusTo: row.status_to,
      paymentFrom: row.payment_from,
      paymentTo: row.payment_to,
      createdAt: row.created_at,
      when: format.format(new Date(row.created_at)),
      reason: row.detail.reason ?? null,
      amount: cents === undefined ? null : formatMoney(cents, language),
    };
  });
}
