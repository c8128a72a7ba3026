import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { SubscriptionPageData } from "./page.server";

export interface PlanCardData {
  id: string;
  name: string;
  priceCents: number;
  price: string;
  interval: "month" | "6months" | "year";
  features: string[];
  popular: boolean;
}

export function PlanCard({
  plan,
  current,
  next,
  action,
}: {
  plan: PlanCardData;
  current: boolean;
  next: boolean;
  action: "choose" | "switch" | null;
}) {
  const { t } = useTranslation("subscription");
  const name = t(`plans.${plan.id}`, { defaultValue: plan.name });
  const headingId = `plan-${plan.id}`;
  return (
    <article
      aria-labelledby={headingId}
      className={`card flex flex-col gap-3 ${plan.popular ? "ring-2 ring-brand-600" : ""}`}
    >
      <div className="flex flex-wrap gap-2">
        {plan.popular ? (
          <span className="rounded-full bg-brand-700 px-2.5 py-0.5 text-xs font-bold text-white">
            {t("badges.popular")}
          </span>
        ) : null}
        {current ? (
          <span className="rounded-full bg-emerald-100 px-2.5 py-0.5 text-xs font-bold text-emerald-900">
            {t("badges.current")}
          </span>
        ) : null}
        {next ? (
          <span className="rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-bold text-amber-950">
            {t("badges.next")}
          </span>
        ) : null}
      </div>
      <h2 id={headingId} className="text-xl font-bold">
        {name}
      </h2>
      <p>
        <span className="text-3xl font-extrabold">{plan.price}</span>{" "}
        <span className="text-stone-700">{t("perInterval", { interval: t(`interval.${plan.interval}`) })}</span>
      </p>
      <ul className="flex-1 space-y-1.5 text-sm" aria-label={t("features.title")}>
        {plan.features.map((feature) => (
          <li key={feature} className="flex gap-2">
            <span aria-hidden className="font-bold text-brand-700">
              ✓
            </span>
            {t(`features.${feature}`)}
          </li>
        ))}
      </ul>
      {action ? (
        <Link
          to={`/subscription/checkout/${encodeURIComponent(plan.id)}`}
          className={`btn w-full ${plan.popular ? "btn-primary" : "btn-secondary"}`}
        >
          {t(action === "choose" ? "choose" : "switchTo", { plan: name })}
        </Link>
      ) : null}
    </article>
  );
}

export function PlanList({ plans, subscription }: Pick<SubscriptionPageData, "plans" | "subscription">) {
  const { t } = useTranslation("subscription");
  if (!plans)
    return (
      <p role="alert" className="card text-red-800">
        {t("errors.loadPlans")}
      </p>
    );
  const current =
    subscription && (subscription.status === "active" || subscription.status === "past_due") ? subscription : null;
  return (
    <>
      <p className="text-center text-stone-700">{t("intro")}</p>
      <div className="grid grid-cols-1 gap-4 md:grid-cols-3">
        {plans.map((plan) => {
          const isCurrent = current?.planId === plan.id;
          const action =
            isCurrent ||
            current?.status === "past_due" ||
            current?.pendingPlan?.id === plan.id ||
            current?.switchable === false
              ? null
              : current
                ? "switch"
                : "choose";
          return (
            <PlanCard
              key={plan.id}
              plan={plan}
              current={isCurrent}
              next={current?.pendingPlan?.id === plan.id}
              action={action}
            />
          );
        })}
      </div>
    </>
  );
}
