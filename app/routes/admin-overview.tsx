import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DailyChart } from "~/features/admin";
import { overview } from "~/features/admin/index.server";
import { requireAdmin } from "~/platform/operator.server";

export const handle = { i18n: ["admin"], title: "admin:overview.title" };

const MONEY = new Set(["grossCents", "feeCents", "mrrCents"]);

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return overview();
}

export default function AdminOverview() {
  const { t } = useTranslation("admin");
  const { days, series } = useLoaderData<typeof loader>();
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">{t("overview.title")}</h1>
      <p className="mb-4 text-stone-700">{t("overview.subtitle")}</p>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {(Object.keys(series) as (keyof typeof series)[]).map((metric) => (
          <DailyChart
            key={metric}
            id={`metric-${metric}`}
            title={t(`overview.metrics.${metric}`)}
            days={days}
            values={series[metric]}
            money={MONEY.has(metric)}
          />
        ))}
      </div>
    </>
  );
}
