import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { useSchemaValidation, type ConstraintOf } from "~/platform/forms";
import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormError, TextAreaField } from "~/platform/ui/field";
import { SubmitButton } from "~/platform/ui/submit-button";
import { REPLY_MAX } from "./rules";
import type { replySchema } from "./schema";
import type { ReviewView } from "./reviews.server";

export interface ReviewsSection {
  reviews: ReviewView[];
  page: number;
  hasMore: boolean;
  cancellations: { cancelled: number; confirmed: number } | null;
}

/** The reviews themselves, newest first, with plain links to page through them (no JavaScript needed). */
export function ProfileReviews({
  section,
  hrefOf,
  lastReply,
  replyConstraint,
  back,
}: {
  section: ReviewsSection;
  hrefOf: (page: number) => string;
  /** Where a report of a review comes back to. */
  back: string;
  lastReply?: { reviewId: string; result: SubmissionResult<string[]> } | null;
  /** Given where the reviewed person may answer (`withReplyForms`). */
  replyConstraint?: ConstraintOf<typeof replySchema>;
}) {
  const { t } = useTranslation("disputes");
  const { reviews, page, hasMore, cancellations } = section;
  return (
    <section aria-labelledby="profile-reviews" className="space-y-3 px-4 pb-6">
      <h2 id="profile-reviews" className="text-lg font-bold">
        {t("reviews.title")}
      </h2>
      {cancellations && cancellations.confirmed > 0 ? (
        <p className="text-sm text-stone-700">
          {t("reviews.cancellations", { cancelled: cancellations.cancelled, count: cancellations.confirmed })}
        </p>
      ) : null}
      {reviews.length === 0 ? (
        <p className="text-stone-700">{t(page > 1 ? "reviews.noMore" : "reviews.none")}</p>
      ) : (
        <ul className="space-y-3">
          {reviews.map((review) => (
            <li key={review.id} className="card space-y-1.5">
              {review.hidden ? (
                <p className="text-stone-700 italic">{t("safety:removed")}</p>
              ) : (
                <>
                  <p className="font-semibold">
                    {review.reviewerName}{" "}
                    <span className="font-normal text-stone-700">
                      <span aria-hidden>{"★".repeat(review.rating ?? 0)}</span>
                      <span className="sr-only">{t("reviews.stars", { count: review.rating ?? 0 })}</span>
                    </span>
                  </p>
                  {review.comment ? <p className="break-words whitespace-pre-line">{review.comment}</p> : null}
                  {review.reply ? (
                    <div className="rounded-xl bg-stone-100 p-2 text-sm">
                      <p className="font-semibold">{t("reviews.replyTitle")}</p>
                      <p className="break-words whitespace-pre-line">{review.reply}</p>
                    </div>
                  ) : null}
                  {review.mine ? null : (
                    <Link
                      to={`/report/review/${review.id}?back=${encodeURIComponent(back)}`}
                      className="text-xs font-semibold text-stone-700 underline hover:text-stone-900"
                    >
                      {t("safety:report.link.review")}
                      <span className="sr-only">{` (${review.reviewerName}, ${review.date})`}</span>
                    </Link>
                  )}
                  {review.canReply && replyConstraint ? (
                    <ReplyForm
                      reviewId={review.id}
                      lastResult={lastReply?.reviewId === review.id ? lastReply.result : undefined}
                      constraint={replyConstraint}
                    />
                  ) : null}
                </>
              )}
              <p className="text-xs text-stone-600">
                <time dateTime={review.createdAt}>{review.date}</time>
              </p>
            </li>
          ))}
        </ul>
      )}
      {page > 1 || hasMore ? (
        <nav aria-label={t("reviews.paging")} className="flex justify-between gap-2">
          {page > 1 ? (
            <Link to={hrefOf(page - 1)} preventScrollReset className="btn btn-secondary">
              {t("reviews.newer")}
            </Link>
          ) : (
            <span />
          )}
          {hasMore ? (
            <Link to={hrefOf(page + 1)} preventScrollReset className="btn btn-secondary">
              {t("reviews.older")}
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}

function ReplyForm({
  reviewId,
  lastResult,
  constraint,
}: {
  reviewId: string;
  lastResult?: SubmissionResult<string[]>;
  constraint: ConstraintOf<typeof replySchema>;
}) {
  const { t } = useTranslation("disputes");
  const [form, fields] = useForm({
    id: `reply-${reviewId}`,
    ...useSchemaValidation(`reply-${reviewId}`, () => import("./schema").then((schemas) => schemas.replySchema)),
    lastResult,
    defaultValue: { reviewId },
    constraint,
  });
  return (
    <Form method="post" {...getFormProps(form)} noValidate className="space-y-2">
      <FormError form={form} />
      <input {...getInputProps(fields.reviewId, { type: "hidden" })} key={fields.reviewId.key} />
      <TextAreaField meta={fields.reply} label={t("reviews.replyLabel")} rows={2} maxLength={REPLY_MAX} />
      <SubmitButton>{t("reviews.replySubmit")}</SubmitButton>
    </Form>
  );
}
