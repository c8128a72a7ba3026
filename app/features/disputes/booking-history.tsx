import { useTranslation } from "react-i18next";

export interface ShownHistoryEntry {
  id: number;
  event: string;
  actorKind: "owner" | "sitter" | "operator" | "system";
  actorName: string | null;
  statusFrom: string | null;
  statusTo: string;
  paymentFrom: string | null;
  paymentTo: string;
  createdAt: string;
  when: string;
  reason: string | null;
  amount: string | null;
}

/** Every transition of a booking, oldest first: what happened, who did it, when, and what changed. */
export function BookingHistory({ entries }: { entries: ShownHistoryEntry[] }) {
  const { t } = useTranslation("disputes");
  if (entries.length === 0) return <p className="text-stone-700">{t("history.empty")}</p>;
  return (
    <ol className="space-y-2">
      {entries.map((entry) => (
        <li key={entry.id} className="rounded-xl border border-stone-200 bg-white p-3 text-sm">
          <p className="font-semibold">
            {t(`history.events.${entry.event}`, { defaultValue: entry.event })} ·{" "}
            <time dateTime={entry.createdAt} className="font-normal">
              {entry.when}
            </time>
          </p>
          <p className="text-stone-700">
            {entry.actorKind === "system"
              ? t("history.bySystem")
              : t(`history.by.${entry.actorKind}`, { name: entry.actorName ?? "" })}
            {" · "}
            {entry.statusFrom && entry.statusFrom !== entry.statusTo
              ? `${t(`bookings:status.${entry.statusFrom}`)} → `
              : ""}
            {t(`bookings:status.${entry.statusTo}`)}
            {" · "}
            {entry.paymentFrom && entry.paymentFrom !== entry.paymentTo
              ? `${t(`bookings:paymentStatus.${entry.paymentFrom}`)} → `
              : ""}
            {t(`bookings:paymentStatus.${entry.paymentTo}`)}
          </p>
          {entry.amount ? <p>{t("history.amount", { amount: entry.amount })}</p> : null}
          {entry.reason ? (
            <p className="break-words whitespace-pre-line">{t("history.reason", { reason: entry.reason })}</p>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
