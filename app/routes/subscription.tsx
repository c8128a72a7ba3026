import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { daysUntil, displayStatus } from "~/features/subscriptions/machine";
import { PlanCard } from "~/features/subscriptions/plan-card";
import { manageSchema, TABS, type SubscriptionTab } from "~/features/subscriptions/schema";
import { cardsOf } from "~/features/payments/cards.server";
import { removeCard, setDefaultCard } from "~/features/subscriptions/cards.server";
import { actOnSubscription } from "~/features/subscriptions/checkout.server";
import { listPlans, subscriptionSummary } from "~/features/subscriptions/subscriptions.server";
import { paymentProvider } from "~/features/payments/payments.server";
import { now } from "~/platform/clock.server";
import { formDataOf } from "~/platform/forms.server";
import { longDay } from "~/platform/format";
import { languageOf } from "~/platform/i18n.server";
import { formatMoney } from "~/platform/money";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { PageHeader } from "~/platform/ui/page-header";
import { TabLinks } from "~/platform/ui/tab-links";
import { SubmitButton } from "~/platform/ui/submit-button";

export const handle = { i18n: ["subscription"], wide: true, title: "subscription:title" };

const MINE = "/subscription?tab=mine";

/** A failed read shows the seed's message in place of its section; the rest of the page still works. */
async function settled<T>(work: Promise<T>): Promise<T | null> {
  try {
    return await work;
  } catch (error) {
    console.error("Subscription page read failed", error);
    return null;
  }
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const asked = new URL(request.url).searchParams.get("tab");
  const tab: SubscriptionTab = TABS.find((item) => item === asked) ?? "plans";
  const [plans, summary, cards, language] = await Promise.all([settled(listPlans()), settled(subscriptionSummary(user.id)), settled(cardsOf(user.id)), languageOf(request)]);
  const live = summary?.live ?? null;
  const at = now();
  // Prices and dates in the reader's language, written here (see ~/platform/format).
  const day = longDay(language, user.time_zone);
  return {
    tab,
    plans: plans?.map((plan) => ({ ...plan, price: formatMoney(plan.priceCents, language) })) ?? null,
    summaryFailed: summary === null,
    cards,
    subscription: live
      ? {
          id: live.id,
          planId: live.plan_id,
          planName: summary?.plan?.name ?? live.plan_id,
          price: formatMoney(summary?.plan?.priceCents ?? 0, language),
          status: displayStatus(live),
          periodStart: day(live.current_period_start),
          periodEnd: day(live.current_period_end),
          daysLeft: live.current_period_end ? daysUntil(new Date(live.current_period_end), at) : null,
          cancelAtPeriodEnd: live.cancel_at_period_end === 1,
          pendingPlan: summary?.pendingPlan ? { id: summary.pendingPlan.id, name: summary.pendingPlan.name } : null,
          nextRetryAt: day(live.next_retry_at),
          lastError: live.last_payment_error,
          charging: live.billing_task !== null,
          // A processor that bills the periods (Stripe) takes no plan change mid-period.
          switchable: !paymentProvider(live.provider).billing,
        }
      : null,
    lastEnded: summary?.lastEnded ? { planId: summary.lastEnded.plan_id, planName: summary.lastEnded.planName, endedAt: day(summary.lastEnded.ended_at) } : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = manageSchema.safeParse(Object.fromEntries(await formDataOf(request)));
  if (!parsed.success) throw data("Bad request", { status: 400 });
  const input = parsed.data;
  const day = longDay(await languageOf(request), user.time_zone);

  if (input.intent === "set-default" || input.intent === "remove-card") {
    const result = input.intent === "set-default" ? await setDefaultCard(user.id, input.methodId) : await removeCard(user.id, input.methodId);
    if (!result.ok && result.reason === "notFound") throw data("Not found", { status: 404 });
    if (!result.ok) return redirectWithToast(MINE, { type: "error", title: result.reason === "unavailable" ? "subscription:errors.processorUnavailable" : "subscription:errors.cardInUse" });
    return redirectWithToast(MINE, { type: "success", title: input.intent === "set-default" ? "subscription:toasts.defaultSet" : "subscription:toasts.cardRemoved" });
  }

  const result = await actOnSubscription(user.id, input.subscriptionId, input.intent);
  if (!result.ok && result.refusal === "notFound") throw data("Not found", { status: 404 });
  if (!result.ok) {
    const title =
      result.refusal === "unavailable"
        ? "subscription:errors.processorUnavailable"
        : input.intent === "cancel"
        ? "subscription:errors.cancel"
        : input.intent === "reactivate"
          ? "subscription:errors.reactivate"
          : result.refusal === "chargePending"
            ? "subscription:errors.chargePending"
            : "subscription:errors.change";
    return redirectWithToast(MINE, { type: "error", title });
  }
  const subscription = result.subscription;
  switch (input.intent) {
    case "cancel":
      return redirectWithToast(MINE, { type: "success", title: "subscription:toasts.cancelled", description: subscription.ended_at ? undefined : "subscription:toasts.cancelledBody", values: { date: day(subscription.current_period_end) } });
    case "reactivate":
      return redirectWithToast(MINE, { type: "success", title: "subscription:toasts.reactivated" });
    case "keep-plan":
      return redirectWithToast(MINE, { type: "success", title: "subscription:toasts.keptPlan" });
    case "retry":
      if (subscription.status === "active") return redirectWithToast(MINE, { type: "success", title: "subscription:toasts.retried" });
      return redirectWithToast(MINE, {
        type: "error",
        title: "subscription:errors.retryFailed",
        description: `subscription:paymentErrors.${subscription.last_payment_error ?? "processing_error"}`,
      });
  }
}

export default function SubscriptionPage() {
  const { t } = useTranslation("subscription");
  const { tab } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("title")} backTo="/dashboard" />
      <div className="space-y-5 px-4 pb-8">
        <TabLinks
          label={t("tabs.label")}
          tabs={TABS}
          current={tab}
          hrefOf={(item) => (item === "plans" ? "/subscription" : MINE)}
          labelOf={(item) => t(`tabs.${item}`)}
          className="mx-auto max-w-md"
        />
        {tab === "plans" ? <Plans /> : <Mine />}
      </div>
    </>
  );
}

function Plans() {
  const { t } = useTranslation("subscription");
  const { plans, subscription } = useLoaderData<typeof loader>();
  if (!plans) return <p role="alert" className="card text-red-800">{t("errors.loadPlans")}</p>;
  const current = subscription && (subscription.status === "active" || subscription.status === "past_due") ? subscription : null;
  return (
    <>
      <p className="text-center text-stone-700">{t("intro")}</p>
      <div className="grid grid-cols-1 gap-4 md:grid-cols-3">
        {plans.map((plan) => {
          const isCurrent = current?.planId === plan.id;
          const action = isCurrent || current?.status === "past_due" || current?.pendingPlan?.id === plan.id || current?.switchable === false ? null : current ? "switch" : "choose";
          return <PlanCard key={plan.id} plan={plan} current={isCurrent} next={current?.pendingPlan?.id === plan.id} action={action} />;
        })}
      </div>
    </>
  );
}

function Mine() {
  const { t } = useTranslation("subscription");
  const { subscription, summaryFailed, lastEnded } = useLoaderData<typeof loader>();
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
                  <dt className="font-semibold">{t(subscription.cancelAtPeriodEnd ? "mine.daysToExpiry" : "mine.daysToRenewal")}</dt>
                  <dd>{subscription.daysLeft}</dd>
                </>
              ) : null}
            </dl>
            {subscription.status === "active" && !subscription.cancelAtPeriodEnd ? (
              <p className="text-sm text-stone-700">
                {subscription.pendingPlan
                  ? t("mine.switchPending", { plan: planName(subscription.pendingPlan.id, subscription.pendingPlan.name), date: subscription.periodEnd })
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
                {t("mine.pastDue", { error: t(`paymentErrors.${subscription.lastError ?? "processing_error"}`), date: subscription.nextRetryAt })}
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
            {lastEnded ? <p className="text-sm text-stone-700">{t("mine.ended", { plan: planName(lastEnded.planId, lastEnded.planName), date: lastEnded.endedAt })}</p> : null}
            <Link to="/subscription" className="btn btn-primary">
              {t("mine.seePlans")}
            </Link>
          </>
        )}
      </section>
      <PaymentMethods />
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

function PaymentMethods() {
  const { t } = useTranslation("subscription");
  const { cards } = useLoaderData<typeof loader>();
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
                    {card.isDefault ? <span className="ml-1 rounded-full bg-brand-100 px-2 py-0.5 text-xs font-bold text-brand-800">{t("methods.default")}</span> : null}
                  </span>
                  <span className="block text-sm text-stone-700">{t("methods.expires", { month: String(card.expMonth).padStart(2, "0"), year: card.expYear })}</span>
                </span>
                <Form method="post" className="flex gap-2">
                  <input type="hidden" name="methodId" value={card.id} />
                  {card.isDefault ? null : (
                    <button type="submit" name="intent" value="set-default" className="btn btn-secondary min-h-9 px-3 text-sm" aria-label={t("methods.setDefaultLabel", label)}>
                      {t("methods.setDefault")}
                    </button>
                  )}
                  <button type="submit" name="intent" value="remove-card" className="btn btn-secondary min-h-9 px-3 text-sm" aria-label={t("methods.removeLabel", label)}>
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
