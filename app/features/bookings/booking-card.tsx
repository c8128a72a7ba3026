import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { dateTimeFormat, listOf } from "~/platform/format";
import { formatMoney } from "~/platform/money";
import { partlyRefunded } from "./money";
import type { BookingView } from "./views.server";

export type ShownBooking = BookingView & {
  text: { date: string; time: string; amount: string; refunded: string; pets: string };
};

export function bookingCardText(booking: BookingView, language: string): ShownBooking {
  const start = new Date(booking.startAt);
  const timeZone = booking.timeZone;
  return {
    ...booking,
    text: {
      pets: listOf(language, booking.petNames),
      date: dateTimeFormat(language, {
        weekday: "short",
        day: "numeric",
        month: "short",
        year: "numeric",
        timeZone,
      }).format(start),
      time: dateTimeFormat(language, { timeStyle: "short", timeZone }).format(start),
      // The owner sees the price, the sitter what they keep of what is paid (less any refund).
      amount: formatMoney(booking.as === "owner" ? booking.money.priceCents : booking.money.sitterKeepsCents, language),
      refunded: formatMoney(booking.money.refundedCents, language),
    },
  };
}

export type SummarisedBooking = BookingView & {
  summary: {
    pets: string;
    when: string;
    rate: string;
    /** What the pets after the first add; null for one pet. */
    extraPets: string | null;
    subtotal: string;
    fee: string;
    total: string;
  };
};

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** How long a booking lasts in its own unit: hours, or a stay's nights or days. */
export function durationText(
  t: Translate,
  booking: Pick<BookingView, "serviceType" | "hours" | "startAt" | "endAt">,
): string {
  if (booking.serviceType === "walk" || booking.serviceType === "drop_in")
    return t("bookings:walk.minutes", {
      minutes: Math.round((new Date(booking.endAt).getTime() - new Date(booking.startAt).getTime()) / 60_000),
    });
  if (booking.serviceType === "day_care") return t("bookings:stay.days", { count: booking.hours });
  if (booking.serviceType === "boarding" || booking.serviceType === "house_sitting")
    return t("bookings:stay.nights", { count: booking.hours });
  return t("bookings:request.hoursLong", { count: booking.hours });
}

/** What the booking's price is per: the hour, or a stay's night or day. */
export function unitPriceLabel(t: Translate, booking: Pick<BookingView, "serviceType">): string {
  if (booking.serviceType === "walk") return t("bookings:walk.pricePerWalk");
  if (booking.serviceType === "drop_in") return t("bookings:walk.pricePerVisit");
  if (booking.serviceType === "day_care") return t("bookings:stay.pricePerDay");
  if (booking.serviceType === "boarding" || booking.serviceType === "house_sitting")
    return t("bookings:stay.pricePerNight");
  return t("bookings:request.hourlyRate");
}

export function bookingSummaryText(booking: BookingView, language: string): SummarisedBooking {
  const money = (cents: number) => formatMoney(cents, language);
  return {
    ...booking,
    summary: {
      pets: listOf(language, booking.petNames),
      rate: money(booking.hourlyRateCents),
      extraPets:
        booking.petNames.length > 1
          ? money((booking.petNames.length - 1) * booking.hours * booking.extraPetCents)
          : null,
      when: dateTimeFormat(language, { dateStyle: "medium", timeStyle: "short", timeZone: booking.timeZone }).format(
        new Date(booking.startAt),
      ),
      subtotal: money(booking.money.sitterKeepsCents),
      fee: money(booking.money.platformFeeCents),
      total: money(booking.money.priceCents),
    },
  };
}

const badgeTone: Record<BookingView["status"], string> = {
  requested: "bg-amber-100 text-amber-950",
  confirmed: "bg-sky-100 text-sky-950",
  "in-progress": "bg-sky-100 text-sky-950",
  completed: "bg-emerald-100 text-emerald-950",
  cancelled: "bg-stone-200 text-stone-800",
};

const SYSTEM_REASONS = new Set(["expired", "slotTaken", "payment", "unanswered", "accountClosed"]);
// Why an occurrence of weekly care ended: a skip or the end of its series (by either side), a change, a day off.
const SERIES_REASONS = new Set(["skipped", "seriesEnded"]);

function cancelledText(t: Translate, booking: ShownBooking): string {
  const reason = booking.cancelReason;
  const by = booking.cancelledBy ?? "system";
  if (booking.seriesId && reason && SERIES_REASONS.has(reason) && by !== "system")
    return t(`card.series.${reason as "skipped" | "seriesEnded"}.${by}`);
  if (booking.seriesId && (reason === "seriesChanged" || reason === "notFree")) return t(`card.series.${reason}`);
  if (reason && by === "sitter" && reason !== "accountClosed") return t("disputes:card.cancelledBySitter", { reason });
  if (reason && by === "owner") return t("card.cancelledReason", { reason });
  return t(`card.cancelledBy.${reason && SYSTEM_REASONS.has(reason) ? reason : by}`);
}

export function BookingCard({ booking }: { booking: ShownBooking }) {
  const { t } = useTranslation("bookings");
  const titleId = `booking-${booking.id}`;
  const action = `/bookings/${booking.id}`;
  return (
    <article aria-labelledby={titleId} className="card space-y-3">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={titleId} className="truncate text-lg font-bold">
            {booking.as === "owner"
              ? booking.other.name
              : t("card.petOf", { pet: booking.text.pets, name: booking.other.name })}
          </h2>
          <p className="text-stone-700">
            {booking.serviceType !== "hourly" ? `${t(`services.${booking.serviceType}`)} · ` : null}
            {booking.as === "owner" ? t("card.forPet", { pet: booking.text.pets }) : t("card.youSit")}
          </p>
        </div>
        <span className={`shrink-0 rounded-full px-2.5 py-1 text-sm font-semibold ${badgeTone[booking.status]}`}>
          {t(`status.${booking.status}`)}
        </span>
      </div>
      <dl className="grid grid-cols-3 gap-2 text-sm">
        <div>
          <dt className="text-stone-600">{t("card.date")}</dt>
          <dd className="font-medium">{booking.text.date}</dd>
        </div>
        <div>
          <dt className="text-stone-600">{t("card.start")}</dt>
          <dd className="font-medium">{booking.text.time}</dd>
        </div>
        <div>
          <dt className="text-stone-600">{t("card.duration")}</dt>
          <dd className="font-medium">{durationText(t, booking)}</dd>
        </div>
      </dl>
      <p className="text-sm text-stone-800">
        {booking.as === "owner"
          ? t("card.total", { amount: booking.text.amount })
          : t("card.earnings", { amount: booking.text.amount })}{" "}
        · {booking.money.pending ? t("paymentStatus.pending") : t(`paymentStatus.${booking.paymentStatus}`)}
        {partlyRefunded(booking.money) ? ` · ${t("disputes:card.refunded", { amount: booking.text.refunded })}` : null}
        {booking.paymentStatus === "unpaid" && booking.holdDueAt
          ? ` · ${t(booking.paymentMode === "charge" ? "stay.chargedAtStart" : "card.holdLater")}`
          : null}
      </p>
      {booking.notes ? (
        <p className="rounded-xl bg-stone-50 p-2 text-sm whitespace-pre-line text-stone-800">{booking.notes}</p>
      ) : null}
      {booking.status === "cancelled" ? <p className="text-sm text-stone-700">{cancelledText(t, booking)}</p> : null}
      {booking.seriesId ? (
        <p className="text-sm">
          <Link to={`/series/${booking.seriesId}`} className="font-semibold text-brand-800 underline">
            {t("card.series.link")}
          </Link>
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {booking.can.pay ? (
          <Link to={`/payment/${booking.id}`} className="btn btn-primary">
            {t("actions.pay")}
          </Link>
        ) : null}
        {booking.can.accept || booking.can.decline || booking.can.finish || booking.can.release ? (
          <Form method="post" action={action} className="contents">
            {booking.can.accept ? <ActionButton intent="accept" label={t("actions.accept")} primary /> : null}
            {booking.can.decline ? <ActionButton intent="decline" label={t("actions.decline")} /> : null}
            {booking.can.finish ? <ActionButton intent="finish" label={t("actions.finish")} /> : null}
            {booking.can.release ? <ActionButton intent="release" label={t("actions.release")} primary /> : null}
          </Form>
        ) : null}
        {booking.can.cancel ? (
          <Link to={`/bookings/${booking.id}/cancel`} className="btn btn-secondary">
            {t("actions.cancel")}
          </Link>
        ) : null}
        {booking.can.reportProblem ? (
          <Link to={`/bookings/${booking.id}/problem`} className="btn btn-secondary">
            {t("disputes:card.reportProblem")}
          </Link>
        ) : null}
        {booking.problem ? (
          <Link to={`/bookings/${booking.id}/problem`} className="btn btn-secondary">
            {t(booking.problem === "open" ? "disputes:card.problemOpen" : "disputes:card.problemSettled")}
          </Link>
        ) : null}
        {booking.status === "confirmed" || booking.status === "in-progress" || booking.status === "completed" ? (
          <Link to={`/bookings/${booking.id}/visit`} className="btn btn-secondary">
            {t("care:link", { pet: booking.text.pets })}
          </Link>
        ) : null}
        {booking.can.review ? (
          <Link to={`/bookings/${booking.id}/review`} className="btn btn-secondary">
            {t("actions.review", { name: booking.other.name })}
          </Link>
        ) : null}
        {booking.bookAgain ? (
          <Link to={booking.bookAgain} className="btn btn-secondary">
            {t("again.link", { name: booking.other.name })}
          </Link>
        ) : null}
      </div>
    </article>
  );
}

function ActionButton({ intent, label, primary = false }: { intent: string; label: string; primary?: boolean }) {
  return (
    <button type="submit" name="intent" value={intent} className={`btn ${primary ? "btn-primary" : "btn-secondary"}`}>
      {label}
    </button>
  );
}

/** What the owner pays, line by line, on the payment page. */
export function PaymentSummary({ booking }: { booking: SummarisedBooking }) {
  const { t } = useTranslation("bookings");
  const { when, rate, extraPets, subtotal, fee, total } = booking.summary;
  return (
    <section aria-labelledby="summary-title" className="card space-y-2">
      <h2 id="summary-title" className="font-semibold">
        {t("payment.service", { pet: booking.summary.pets, name: booking.other.name })}
      </h2>
      <p className="text-stone-700">{t("stay.when", { when, duration: durationText(t, booking) })}</p>
      <dl className="grid grid-cols-2 gap-y-1">
        <dt>{unitPriceLabel(t, booking)}</dt>
        <dd className="text-right">{rate}</dd>
        {extraPets ? (
          <>
            <dt>{t("request.extraPetsRow", { count: booking.petNames.length - 1 })}</dt>
            <dd className="text-right">{extraPets}</dd>
          </>
        ) : null}
        <dt>{t("request.subtotal")}</dt>
        <dd className="text-right">{subtotal}</dd>
        <dt>{t("request.fee")}</dt>
        <dd className="text-right">{fee}</dd>
        <dt className="font-bold">{t("payment.total")}</dt>
        <dd className="text-right font-bold">{total}</dd>
      </dl>
    </section>
  );
}
