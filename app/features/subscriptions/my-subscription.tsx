import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SubmitButton } from "~/platform/ui/submit-button";
import type { SubscriptionPageData } from "./page.server";

export function MySubscription({
  subscription,
  summaryFailed,
  lastEnded,
  cards,
}: Pick<SubscriptionPageData, "subscription" | "summaryFailed" | "lastEnded" | "cards">) {
  const { t } = useTranslation("subscription");
  const planName = (id: string, fallback: string) => t(`plans.${id}`, { defaultValue: fallback });
  return (
    <div className="mx-auto max-w-md space-y-5">
      <section aria-labelledby="my-subscription" className="card space-y-3">
        <h2 id="my-subscription" className="text-lg font-bold">
          {t("tabs.mine")}
        </h2>
        {summaryFailed ? (
          <p role="alert" className="text-red-800">
            {t("errors.loadSubscription")}
          </p>
        ) : subscription ? (
          <>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
              <dt className="font-semibold">{t("mine.plan")}</dt>
              <dd>{planName(subscription.planId, subscription.planName)}</dd>
              <dt className="font-semibold">{t("status.label")}</dt>
              <dd>
                <StatusBadge status={subscription.status} />
              </dd>
              {subscription.periodStart && subscription.periodEnd ? (
                <>
                  <dt className="font-semibold">{t("mine.period")}</dt>
                  <dd>{t("mine.periodValue", { start: subscription.periodStart, end: subscription.periodEnd })}</dd>
                </>
              ) : null}
              {subscription.daysLeft !== null && subscription.status === "active" ? (
                <>
                  <dt className="font-semibold">
                    {t(subscription.cancelAtPeriodEnd ? "mine.daysToExpiry" : "mine.daysToRenewal")}
                  </dt>
                  <dd>{subscription.daysLeft}</dd>
                </>
              ) : null}
            </dl>
            {subscription.status === "active" && !subscription.cancelAtPeriodEnd ? (
              <p className="text-sm text-stone-700">
                {subscription.pendingPlan
                  ? t("mine.switchPending", {
                      plan: planName(subscription.pendingPlan.id, subscription.pendingPlan.name),
                      date: subscription.periodEnd,
                    })
                  : t("mine.renewsOn", { date: subscription.periodEnd, price: subscription.price })}
              </p>
            ) : null}
            {subscription.cancelAtPeriodEnd ? (
              <p role="status" className="rounded-xl bg-amber-50 p-3 text-sm text-amber-950 ring-1 ring-amber-200">
                {t("mine.endsOn", { date: subscription.periodEnd })}
              </p>
            ) : null}
            {subscription.status === "past_due" ? (
              <p role="status" className="rounded-xl bg-red-50 p-3 text-sm text-red-900 ring-1 ring-red-200">
                {t("mine.pastDue", {
                  error: t(`paymentErrors.${subscription.lastError ?? "processing_error"}`),
                  date: subscription.nextRetryAt,
                })}
              </p>
            ) : null}
            {subscription.status === "unpaid" ? (
              <p role="status" className="rounded-xl bg-red-50 p-3 text-sm text-red-900 ring-1 ring-red-200">
                {t("mine.unpaid")}
              </p>
            ) : null}
            {subscription.status === "incomplete" ? (
              <p role="status" className="rounded-xl bg-red-50 p-3 text-sm text-red-900 ring-1 ring-red-200">
                {t("mine.incomplete")}
              </p>
            ) : null}
            <Form method="post" className="flex flex-wrap gap-2">
              <input type="hidden" name="subscriptionId" value={subscription.id} />
              {subscription.status === "active" && !subscription.cancelAtPeriodEnd ? (
                <SubmitButton name="intent" value="cancel" variant="secondary">
                  {t("mine.cancel")}
                </SubmitButton>
              ) : null}
              {subscription.status === "active" && subscription.cancelAtPeriodEnd ? (
                <SubmitButton name="intent" value="reactivate">
                  {t("mine.reactivate")}
                </SubmitButton>
              ) : null}
              {subscription.status === "active" && subscription.pendingPlan ? (
                <SubmitButton name="intent" value="keep-plan" variant="secondary">
                  {t("mine.keepPlan")}
                </SubmitButton>
              ) : null}
              {(subscription.status === "past_due" || subscription.status === "unpaid") && !subscription.charging ? (
                <>
                  <SubmitButton name="intent" value="retry">
                    {t("mine.retry")}
                  </SubmitButton>
                  <SubmitButton name="intent" value="cancel" variant="secondary">
                    {t("mine.cancel")}
                  </SubmitButton>
                </>
              ) : null}
            </Form>
            {subscription.status === "incomplete" ? (
              <Link to="/subscription" className="btn btn-primary">
                {t("mine.seePlans")}
              </Link>
            ) : null}
          </>
        ) : (
          <>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
              <dt className="font-semibold">{t("status.label")}</dt>
              <dd>
                <StatusBadge status={lastEnded ? "canceled" : "inactive"} />
              </dd>
            </dl>
            <p className="text-stone-700">{t("mine.none")}</p>
            {lastEnded ? (
              <p className="text-sm text-stone-700">
                {t("mine.ended", { plan: planName(lastEnded.planId, lastEnded.planName), date: lastEnded.endedAt })}
              </p>
            ) : null}
            <Link to="/subscription" className="btn btn-primary">
              {t("mine.seePlans")}
            </Link>
          </>
        )}
      </section>
      <PaymentMethods cards={cards} />
    </div>
  );
}

function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation("subscription");
  const tone =
    status === "active"
      ? "bg-emerald-100 text-emerald-900"
      : status === "past_due" || status === "unpaid" || status === "incomplete"
        ? "bg-red-100 text-red-900"
        : "bg-stone-200 text-stone-800";
  return <span className={`rounded-full px-2.5 py-0.5 text-xs font-bold ${tone}`}>{t(`status.${status}`)}</span>;
}

function PaymentMethods({ cards }: Pick<SubscriptionPageData, "cards">) {
  const { t } = useTranslation("subscription");
  return (
    <section id="payment-methods" aria-labelledby="payment-methods-title" className="card space-y-3">
      <h2 id="payment-methods-title" className="text-lg font-bold">
        {t("methods.title")}
      </h2>
      {cards === null ? (
        <p role="alert" className="text-red-800">
          {t("errors.loadInfo")}
        </p>
      ) : cards.length === 0 ? (
        <p className="text-stone-700">{t("methods.none")}</p>
      ) : (
        <ul className="divide-y divide-stone-200">
          {cards.map((card) => {
            const label = { brand: card.brand, last4: card.last4 };
            return (
              <li key={card.id} className="flex flex-wrap items-center justify-between gap-2 py-2.5">
                <span>
                  <span className="block font-semibold">
                    {t("methods.card", label)}{" "}
                    {card.isDefault ? (
                      <span className="ml-1 rounded-full bg-brand-100 px-2 py-0.5 text-xs font-bold text-brand-800">
                        {t("methods.default")}
                      </span>
                    ) : null}
                  </span>
                  <span className="block text-sm text-stone-700">
                    {t("methods.expires", { month: String(card.expMonth).padStart(2, "0"), year: card.expYear })}
                  </span>
                </span>
                <Form method="post" className="flex gap-2">
                  <input type="hidden" name="methodId" value={card.id} />
                  {card.isDefault ? null : (
                    <button
                      type="submit"
                      name="intent"
                      value="set-default"
                      className="btn btn-secondary min-h-9 px-3 text-sm"
                      aria-label={t("methods.setDefaultLabel", label)}
                    >
                      {t("methods.setDefault")}
                    </button>
                  )}
                  <button
                    type="submit"
                    name="intent"
                    value="remove-card"
                    className="btn btn-secondary min-h-9 px-3 text-sm"
                    aria-label={t("methods.removeLabel", label)}
                  >
                    {t("methods.remove")}
                  </button>
                </Form>
              </li>
            );
          })}
        </ul>
      )}
      <Link to="/subscription/cards/new" className="btn btn-secondary w-full">
        {t("methods.add")}
      </Link>
    </section>
  );
}
