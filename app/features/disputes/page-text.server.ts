import { dateTimeFormat } from "~/platform/format";
import { formatMoney } from "~/platform/money";
import type { UploadProblem } from "~/features/media/index.server";
import type { problemPage } from "./views.server";
import type { DisputePostView } from "./views.server";

const UPLOAD_MESSAGES: Record<UploadProblem, string> = {
  "media.tooLarge": "disputes:errors.photoTooLarge",
  "media.tooMany": "disputes:errors.photoTooMany",
  "media.notAnImage": "disputes:errors.photoInvalid",
  "media.badRequest": "disputes:errors.photoInvalid",
};

/** A reply conform shows above the form, for uploads refused before any field was read. */
export const uploadProblemReply = (problem: UploadProblem) => ({ status: "error" as const, error: { "": [UPLOAD_MESSAGES[problem]] } });

export function postsText(posts: DisputePostView[], language: string, timeZone: string) {
  const format = dateTimeFormat(language, { dateStyle: "medium", timeStyle: "short", timeZone });
  return posts.map((post) => ({ ...post, when: format.format(new Date(post.createdAt)) }));
}

export function disputePageText(page: NonNullable<Awaited<ReturnType<typeof problemPage>>>, language: string, timeZone: string) {
  const money = (cents: number) => formatMoney(cents, language);
  return {
    ...page,
    booking: { ...page.booking, when: dateTimeFormat(language, { dateStyle: "medium", timeStyle: "short", timeZone }).format(new Date(page.booking.startAt)) },
    dispute: page.dispute ? { ...page.dispute, refundText: money(page.dispute.refundCents ?? 0) } : null,
    moneyText: { paid: money(page.money.paidCents), refunded: money(page.money.refundedCents), sitter: money(page.money.sitterCents), fee: money(page.money.platformFeeCents), total: money(page.money.totalCents) },
    posts: postsText(page.posts, language, timeZone),
  };
}
