import { useTranslation } from "react-i18next";
import { careLines } from "./care-lines";
import type { CarePlanView } from "./plans.server";

function Lines({ value }: { value: string }) {
  const lines = careLines(value);
  if (lines.length === 0) return <span className="text-stone-600">—</span>;
  return (
    <ul className="list-disc space-y-0.5 pl-5">
      {lines.map((line, index) => (
        <li key={index}>{line}</li>
      ))}
    </ul>
  );
}

export function CarePlanDetails({
  plan,
  petName,
  index = 0,
}: {
  plan: CarePlanView;
  petName: string;
  /** Which of the booking's pets, so each plan's heading has its own id. */
  index?: number;
}) {
  const { t } = useTranslation("care");
  const empty = Object.values(plan).every((value) => value === "");
  const titleId = `care-plan-view-title-${index}`;
  return (
    <section aria-labelledby={titleId} className="card space-y-3">
      <h2 id={titleId} className="text-lg font-semibold">
        {t("plan.title", { pet: petName })}
      </h2>
      {empty ? (
        <p className="text-stone-700">{t("plan.none")}</p>
      ) : (
        <dl className="space-y-3 text-sm">
          <div>
            <dt className="font-semibold">{t("plan.feeding")}</dt>
            <dd>
              <Lines value={plan.feeding} />
            </dd>
          </div>
          <div>
            <dt className="font-semibold">{t("plan.medication")}</dt>
            <dd>
              <Lines value={plan.medication} />
            </dd>
          </div>
          <div>
            <dt className="font-semibold">{t("plan.walks")}</dt>
            <dd>
              <Lines value={plan.walks} />
            </dd>
          </div>
          <div>
            <dt className="font-semibold">{t("plan.houseNotes")}</dt>
            <dd className="whitespace-pre-line">{plan.houseNotes || "—"}</dd>
          </div>
          <div>
            <dt className="font-semibold">{t("plan.vet")}</dt>
            <dd>{[plan.vetName, plan.vetPhone, plan.vetAddress].filter(Boolean).join(" · ") || "—"}</dd>
          </div>
          <div>
            <dt className="font-semibold">{t("plan.emergency")}</dt>
            <dd>{[plan.emergencyName, plan.emergencyPhone].filter(Boolean).join(" · ") || "—"}</dd>
          </div>
        </dl>
      )}
    </section>
  );
}
