import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { partlyRefunded } from "~/features/bookings";
import type { PersonDetail } from "./people.server";
import { ConsoleSection, ReasonForm, useConsoleFormat } from "./console-ui";
import { ReportSummary } from "./report-card";

function List<Item>({ items, empty, render }: { items: Item[]; empty: string; render: (item: Item) => ReactNode }) {
  if (items.length === 0) return <p className="text-stone-700">{empty}</p>;
  return <ul className="divide-y divide-stone-200 text-sm">{items.map(render)}</ul>;
}

export function PersonPage({ detail, error }: { detail: PersonDetail; error?: string | null }) {
  const { t } = useTranslation("admin");
  const format = useConsoleFormat();
  const { person } = detail;
  return (
    <div className="space-y-4">
      <header className="space-y-1">
        <h1 className="text-2xl font-bold tracking-tight break-words">{person.name}</h1>
        {person.email ? <p className="break-all text-stone-700">{person.email}</p> : null}
        <p className="flex flex-wrap gap-2 text-sm">
          <span>{t(`roles.${person.role}`)}</span>
          {person.isAdmin ? (
            <span className="rounded-full bg-brand-100 px-2 font-semibold text-brand-900">{t("people.operator")}</span>
          ) : null}
          {person.deleted ? (
            <span className="rounded-full bg-stone-200 px-2 font-semibold text-stone-900">{t("people.deleted")}</span>
          ) : null}
          <span>· {person.city}</span>
          <span>· {t("people.joined", { when: format.when(person.createdAt) })}</span>
          {person.emailConfirmed ? null : <span>· {t("person.unconfirmed")}</span>}
        </p>
      </header>

      <ConsoleSection id="person-access" title={t("person.access")}>
        {person.deleted ? (
          <p role="status" className="rounded-xl bg-stone-100 p-3 text-sm text-stone-900 ring-1 ring-stone-200">
            {t("people.deleted")}
          </p>
        ) : person.suspended ? (
          <p role="status" className="rounded-xl bg-red-50 p-3 text-sm text-red-900 ring-1 ring-red-200">
            {t("person.suspendedSince", { when: format.when(person.suspendedAt) })}{" "}
            {t("person.suspendedBecause", { reason: person.suspensionReason ?? "" })}
          </p>
        ) : (
          <p className="text-sm text-stone-700">{t("person.active")}</p>
        )}
        {person.deleted ? null : (
          <>
            <ReasonForm
              id="person-access"
              hidden={{}}
              error={error}
              actions={
                person.suspended
                  ? [{ intent: "lift", label: t("person.lift") }]
                  : [{ intent: "suspend", label: t("person.suspend"), danger: true }]
              }
            />
            {person.suspended ? null : <p className="text-xs text-stone-700">{t("person.suspendHint")}</p>}
          </>
        )}
      </ConsoleSection>

      <ConsoleSection id="person-bookings" title={t("person.bookings")}>
        <List
          items={detail.bookings}
          empty={t("person.noBookings")}
          render={(booking) => (
            <li key={booking.id} className="flex flex-wrap justify-between gap-2 py-2">
              <span>
                <span className="block font-semibold">
                  {t(`person.as.${booking.as}`)} · {booking.petName} · {booking.otherName}
                </span>
                <span className="block text-stone-700">{format.when(booking.startAt)}</span>
                <span className="block font-mono text-xs text-stone-700">{booking.id}</span>
              </span>
              <span className="text-right">
                <span className="block">{t(`bookings:status.${booking.status}`)}</span>
                <span className="block text-stone-700">
                  {format.money(booking.money.priceCents)} · {t(`bookings:paymentStatus.${booking.paymentStatus}`)}
                  {partlyRefunded(booking.money)
                    ? ` · ${t("disputes:card.refunded", { amount: format.money(booking.money.refundedCents) })}`
                    : null}
                </span>
              </span>
            </li>
          )}
        />
      </ConsoleSection>

      <ConsoleSection id="person-reports-received" title={t("person.reportsReceived")}>
        <List
          items={detail.reportsReceived}
          empty={t("person.noReports")}
          render={(report) => (
            <li key={report.id} className="py-3">
              <ReportSummary report={report} />
            </li>
          )}
        />
        {detail.reportsReceived.some((report) => report.status === "open") ? (
          <Link to="/admin/reports" className="link text-sm">
            {t("person.toQueue")}
          </Link>
        ) : null}
      </ConsoleSection>

      <ConsoleSection id="person-reports-made" title={t("person.reportsMade")}>
        <List
          items={detail.reportsMade}
          empty={t("person.noReports")}
          render={(report) => (
            <li key={report.id} className="py-2">
              {t(`reports.subject.${report.subjectType}`)} · {report.reportedName} ·{" "}
              {t(`safety:reasons.${report.reason}`)} · {t(`reports.status.${report.status}`)} ·{" "}
              {format.when(report.createdAt)}
            </li>
          )}
        />
      </ConsoleSection>

      <ConsoleSection id="person-blocks" title={t("person.blocks")}>
        <List
          items={[
            ...detail.blocksMade.map((b) => ({ ...b, made: true })),
            ...detail.blockedBy.map((b) => ({ ...b, made: false })),
          ]}
          empty={t("person.noBlocks")}
          render={(block) => (
            <li key={`${block.made}-${block.userId}`} className="py-2">
              {t(block.made ? "person.blocked" : "person.blockedBy", { name: block.name })} · {format.when(block.at)}
            </li>
          )}
        />
      </ConsoleSection>

      <ConsoleSection id="person-reviews" title={t("person.reviews")}>
        <List
          items={detail.reviews}
          empty={t("person.noReviews")}
          render={(review) => (
            <li key={review.id} className="py-2">
              <span className="block font-semibold">
                {t(review.given ? "person.reviewGiven" : "person.reviewReceived", { name: review.otherName })} ·{" "}
                {t("reports.stars", { stars: review.rating })}
              </span>
              {review.comment ? <span className="block break-words">{review.comment}</span> : null}
              <span className="block text-stone-700">
                {format.when(review.createdAt)}
                {review.hidden ? ` · ${t("reports.hidden")}` : null}
              </span>
            </li>
          )}
        />
      </ConsoleSection>

      <ConsoleSection id="person-subscription" title={t("person.subscription")}>
        <List
          items={detail.subscriptions}
          empty={t("person.noSubscription")}
          render={(subscription) => (
            <li key={subscription.id} className="py-2">
              {subscription.plan} · {t(`person.subscriptionStatus.${subscription.status}`)} ·{" "}
              {t("person.periodEnd", { when: format.when(subscription.periodEnd) })}
            </li>
          )}
        />
        <h3 className="font-semibold">{t("person.payments")}</h3>
        <List
          items={detail.subscriptionPayments}
          empty={t("person.noPayments")}
          render={(payment) => (
            <li key={payment.id} className="flex justify-between gap-2 py-2">
              <span>{format.when(payment.createdAt)}</span>
              <span>
                {format.money(payment.amountCents)} · {t(`person.paymentStatus.${payment.status}`)}
              </span>
            </li>
          )}
        />
      </ConsoleSection>
    </div>
  );
}
