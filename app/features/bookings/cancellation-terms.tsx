import { useTranslation } from "react-i18next";
import type { CancellationPolicy } from "~db/schema";
import { dateTimeFormat } from "~/platform/format";
import { formatMoney } from "~/platform/money";
import { policyTimeline } from "./cancellation";
import type { BookingMoney } from "./money";

/** A policy's deadline as the reader sees it (their language and time zone), written on the server. */
export function deadlineFormat(language: string, timeZone: string): (iso: string) => string {
  const format = dateTimeFormat(language, {
    weekday: "short",
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
    timeZone,
  });
  return (iso) => format.format(new Date(iso));
}

export interface TermsText {
  policy: CancellationPolicy;
  deadline: string;
  refundPercent: number;
  lateRefundPercent: number;
  /** The amounts given back before and from the deadline, when the price is known. */
  refund: string | null;
  lateRefund: string | null;
}

/** A booking's policy in dates and amounts, for the owner's pages. */
export function termsText(
  booking: { policy: CancellationPolicy; startAt: string; totalCents: number },
  reader: { language: string; timeZone: string },
): TermsText {
  const timeline = policyTimeline(booking.policy, booking.startAt, booking.totalCents);
  return {
    policy: booking.policy,
    deadline: deadlineFormat(reader.language, reader.timeZone)(timeline.deadline),
    refundPercent: timeline.refundPercent,
    lateRefundPercent: timeline.lateRefundPercent,
    refund: formatMoney(timeline.refundCents, reader.language),
    lateRefund: formatMoney(timeline.lateRefundCents, reader.language),
  };
}

/** "Cancel before Fri 12 Dec 10:00 for a full refund (€54.00)", then what is given back after. */
export function TermsLines({ terms }: { terms: TermsText }) {
  const { t } = useTranslation("bookings");
  const withAmount = terms.refund !== null;
  const before =
    terms.refundPercent === 100
      ? t(withAmount ? "policy.fullBeforeAmount" : "policy.fullBefore", { date: terms.deadline, amount: terms.refund })
      : t(withAmount ? "policy.partBeforeAmount" : "policy.partBefore", {
          date: terms.deadline,
          percent: terms.refundPercent,
          amount: terms.refund,
        });
  const after =
    terms.lateRefundPercent === 0
      ? t("policy.noneAfter")
      : t(withAmount ? "policy.partAfterAmount" : "policy.partAfter", {
          percent: terms.lateRefundPercent,
          amount: terms.lateRefund,
        });
  return (
    <>
      <p>{before}</p>
      <p>{after}</p>
    </>
  );
}

export function CancellationTerms({ terms }: { terms: TermsText }) {
  const { t } = useTranslation("bookings");
  return (
    <section aria-labelledby="policy-title" className="card space-y-1 text-stone-800">
      <h2 id="policy-title" className="font-semibold">
        {t("policy.title", { name: t(`policy.names.${terms.policy}`) })}
      </h2>
      <TermsLines terms={terms} />
      <p className="text-sm text-stone-700">{t("policy.onceAccepted")}</p>
    </section>
  );
}

/**
 * The request page: the policy explained, and for each start time the sitter offers its exact deadline,
 * the chosen one shown by CSS so that it works without JavaScript (the form's id is "booking-request").
 */
export function RequestPolicy({
  policy,
  deadlines,
}: {
  policy: CancellationPolicy;
  deadlines: { time: string; terms: TermsText }[];
}) {
  const { t } = useTranslation("bookings");
  // Times are HH:MM from the server's own list, safe inside a CSS string.
  const rules = deadlines
    .map(
      ({ time }) =>
        `#booking-request:has(select[name="startTime"] option[value="${time}"]:checked) [data-policy-for="${time}"]{display:block}`,
    )
    .join("");
  return (
    <section aria-labelledby="policy-title" className="card space-y-1 text-stone-800">
      <h2 id="policy-title" className="font-semibold">
        {t("policy.title", { name: t(`policy.names.${policy}`) })}
      </h2>
      <p>{t(`policy.terms.${policy}`)}</p>
      <style dangerouslySetInnerHTML={{ __html: rules }} />
      <div aria-live="polite">
        {deadlines.map(({ time, terms }) => (
          <div key={time} data-policy-for={time} className="hidden">
            <TermsLines terms={terms} />
          </div>
        ))}
      </div>
      <p className="text-sm text-stone-700">{t("policy.onceAccepted")}</p>
    </section>
  );
}

/** What an owner's cancellation now gives back and what the sitter keeps, told before it is confirmed. */
export interface CancelOutcomeText {
  refund: string;
  kept: string;
  sitterKeeps: string;
  fee: string;
  keepsPart: boolean;
  charged: boolean;
}

export function cancelOutcomeText(money: BookingMoney, language: string): CancelOutcomeText {
  const amount = (cents: number) => formatMoney(cents, language);
  return {
    refund: amount(money.refundedCents),
    kept: amount(money.paidCents),
    sitterKeeps: amount(money.sitterKeepsCents),
    fee: amount(money.platformFeeCents),
    keepsPart: money.paidCents > 0,
    charged: money.stage !== "none",
  };
}

export function CancelOutcome({
  outcome,
  total,
  sitter,
}: {
  outcome: CancelOutcomeText;
  total: string;
  sitter: string;
}) {
  const { t } = useTranslation("bookings");
  if (!outcome.charged) return <p className="text-stone-700">{t("cancel.nothingCharged")}</p>;
  if (!outcome.keepsPart) return <p className="text-stone-700">{t("cancel.refund", { amount: total })}</p>;
  return (
    <div id="cancel-outcome" className="card space-y-1 text-stone-800">
      <p className="font-semibold">{t("cancel.partRefund", { refund: outcome.refund, total })}</p>
      <p>
        {t("cancel.partKept", { kept: outcome.kept, name: sitter, sitterKeeps: outcome.sitterKeeps, fee: outcome.fee })}
      </p>
    </div>
  );
}
