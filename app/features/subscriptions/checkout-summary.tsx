import { useTranslation } from "react-i18next";

export function CheckoutSummary({
  plan,
  switchFrom,
}: {
  plan: { id: string; name: string; price: string; interval: string };
  switchFrom: { planId: string; planName: string; periodEnd: string } | null;
}) {
  const { t } = useTranslation("subscription");
  const planName = t(`plans.${plan.id}`, { defaultValue: plan.name });
  const { price } = plan;
  const interval = t(`interval.${plan.interval}`);
  return (
    <section aria-labelledby="plan-summary" className="card space-y-1">
      <h2 id="plan-summary" className="text-lg font-bold">
        {planName}
      </h2>
      <p className="text-xl font-extrabold">{t("checkout.summary", { price, interval })}</p>
      <p className="text-sm text-stone-700">
        {switchFrom
          ? t("checkout.switchNote", {
              current: t(`plans.${switchFrom.planId}`, { defaultValue: switchFrom.planName }),
              date: switchFrom.periodEnd,
              plan: planName,
              price,
            })
          : t("checkout.renewsNote", { interval })}
      </p>
    </section>
  );
}
