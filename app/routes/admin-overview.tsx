import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { DailyChart, SystemPanel } from "~/features/admin";
import { overview, systemPanel } from "~/features/admin/index.server";
import { requireAdmin } from "~/platform/operator.server";

export const handle = { i18n: ["admin"], title: "admin:overview.title" };

const MONEY = new Set(["grossCents", "feeCents", "mrrCents"]);

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const [figures, system] = await Promise.all([overview(), systemPanel()]);
  return { ...figures, system };
}

export default function AdminOverview() {
  const { t } = useTranslation("admin");
  const { days, series, system } = useLoaderData<typeof loader>();
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight">{t("overview.title")}</h1>
      <div className="mb-6">
        <SystemPanel system={system} />
      </div>
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
