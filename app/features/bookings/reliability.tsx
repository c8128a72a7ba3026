import { useTranslation } from "react-i18next";
import type { ReliabilityText } from "./reliability.server";

/** A sitter's response time, acceptance rate and repeat clients, each with one line saying what it counts. */
export function SitterReliability({ figures }: { figures: ReliabilityText }) {
  const { t } = useTranslation("profile");
  const rows = [
    {
      key: "response",
      label: t("reliability.response"),
      value: figures.response
        ? t(`reliability.within.${figures.response.unit}`, { count: figures.response.count })
        : t("reliability.none"),
      explained: t("reliability.responseExplained"),
    },
    {
      key: "acceptance",
      label: t("reliability.acceptance"),
      value: figures.acceptance ?? t("reliability.none"),
      explained: t("reliability.acceptanceExplained"),
    },
    {
      key: "repeat",
      label: t("reliability.repeat"),
      value: t("reliability.repeatValue", { repeat: figures.repeatClients, count: figures.clients }),
      explained: t("reliability.repeatExplained"),
    },
  ];
  return (
    <section aria-labelledby="sitter-reliability" className="space-y-2 px-4 pb-6">
      <h2 id="sitter-reliability" className="text-lg font-bold">
        {t("reliability.title")}
      </h2>
      <dl className="card space-y-3">
        {rows.map((row) => (
          <div key={row.key} className="grid grid-cols-[1fr_auto] gap-x-3">
            <dt className="font-semibold">{row.label}</dt>
            <dd className="text-right font-semibold">{row.value}</dd>
            <dd className="col-span-2 text-sm text-stone-700">{row.explained}</dd>
          </div>
        ))}
      </dl>
      <p className="text-sm text-stone-700">{t("reliability.basis", { count: figures.requests })}</p>
    </section>
  );
}
