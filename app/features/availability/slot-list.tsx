import { useTranslation } from "react-i18next";
import { ConfirmLink } from "~/platform/ui/confirm-link";
import type { SlotView } from "./availability.server";

const badgeTone: Record<SlotView["status"], string> = {
  available: "bg-emerald-100 text-emerald-950",
  booked: "bg-sky-100 text-sky-950",
  unavailable: "bg-stone-200 text-stone-800",
};

/** A day's slots, each with its status, and a way to delete the ones still free. */
export function SlotList({
  dateLabel,
  slots,
}: {
  dateLabel: string;
  slots: { id: string; status: SlotView["status"]; range: string }[];
}) {
  const { t } = useTranslation("availability");
  return (
    <section aria-labelledby="slots-title" className="card space-y-3">
      <h2 id="slots-title" className="text-lg font-semibold">
        {dateLabel}
      </h2>
      {slots.length === 0 ? (
        <p className="text-stone-700">{t("list.empty")}</p>
      ) : (
        <ul className="divide-y divide-stone-200">
          {slots.map((slot) => (
            <li key={slot.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
              <span className="flex-1 font-semibold tabular-nums">{slot.range}</span>
              <span className={`rounded-full px-2.5 py-1 text-sm font-semibold ${badgeTone[slot.status]}`}>
                {t(`status.${slot.status}`)}
              </span>
              {slot.status === "available" ? (
                <ConfirmLink
                  to={`/availability/${slot.id}/delete`}
                  question={t("delete.question", { range: slot.range })}
                  confirmLabel={t("delete.confirm")}
                  className="link inline-flex min-h-11 items-center text-red-800"
                >
                  {t("delete.link")}
                  <span className="sr-only"> {slot.range}</span>
                </ConfirmLink>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
