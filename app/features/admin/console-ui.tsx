import { Form, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { dateTimeFormat, numberFormat } from "~/platform/format";
import { formatMoney } from "~/platform/money";

/** Console times are in UTC, said so on every page, so operators in different places read the same log. */
export function useConsoleFormat() {
  const { i18n } = useTranslation("admin");
  const language = i18n.language;
  const when = dateTimeFormat(language, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
  const day = dateTimeFormat(language, { day: "numeric", month: "short", timeZone: "UTC" });
  const count = numberFormat(language, {});
  return {
    when: (iso: string | null) => (iso ? `${when.format(new Date(iso))} UTC` : "—"),
    day: (isoDay: string) => day.format(new Date(`${isoDay}T12:00:00Z`)),
    money: (cents: number) => formatMoney(cents, language),
    count: (value: number) => count.format(value),
  };
}

export function ConsoleSection({ title, children, id }: { title: string; children: ReactNode; id: string }) {
  return (
    <section aria-labelledby={id} className="card space-y-3">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

const CHART_WIDTH = 300;
const CHART_HEIGHT = 80;

/**
 * One figure per day as bars drawn on the server. The picture is for the eyes; screen readers get
 * the same numbers as a table.
 */
export function DailyChart({
  id,
  title,
  days,
  values,
  money = false,
}: {
  id: string;
  title: string;
  days: string[];
  values: number[];
  money?: boolean;
}) {
  const { t } = useTranslation("admin");
  const format = useConsoleFormat();
  const shown = (value: number) => (money ? format.money(value) : format.count(value));
  const max = Math.max(1, ...values);
  const barWidth = CHART_WIDTH / values.length;
  const total = values.reduce((sum, value) => sum + value, 0);
  const latest = values[values.length - 1] ?? 0;
  return (
    <figure aria-labelledby={id} className="card space-y-2">
      <figcaption id={id} className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="font-semibold">{title}</span>
        <span className="text-sm text-stone-700">{t("overview.latest", { value: shown(latest) })}</span>
      </figcaption>
      <svg
        aria-hidden
        viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`}
        className="h-20 w-full"
        preserveAspectRatio="none"
      >
        <line
          x1="0"
          y1={CHART_HEIGHT - 0.5}
          x2={CHART_WIDTH}
          y2={CHART_HEIGHT - 0.5}
          stroke="#a8a29e"
          strokeWidth="1"
        />
        {values.map((value, index) => {
          const height = value === 0 ? 0 : Math.max(2, (value / max) * (CHART_HEIGHT - 4));
          return (
            <rect
              key={days[index]}
              x={index * barWidth + 1}
              y={CHART_HEIGHT - height}
              width={Math.max(1, barWidth - 2)}
              height={height}
              fill="#0f766e"
            />
          );
        })}
      </svg>
      <p className="flex justify-between text-xs text-stone-700" aria-hidden>
        <span>{format.day(days[0] ?? "")}</span>
        <span>{format.day(days[days.length - 1] ?? "")}</span>
      </p>
      <p className="text-sm text-stone-700">{t("overview.total", { value: shown(total) })}</p>
      <table className="sr-only">
        <caption>{t("overview.tableCaption", { title })}</caption>
        <thead>
          <tr>
            <th scope="col">{t("overview.day")}</th>
            <th scope="col">{title}</th>
          </tr>
        </thead>
        <tbody>
          {days.map((day, index) => (
            <tr key={day}>
              <th scope="row">{format.day(day)}</th>
              <td>{shown(values[index] ?? 0)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

/**
 * An operator action: its reason (required, in the audit log) and one or more buttons, each an
 * intent. Works without JavaScript; a refusal comes back as `error` beside the reason.
 */
export function ReasonForm({
  id,
  hidden,
  actions,
  error,
  label,
}: {
  id: string;
  hidden: Record<string, string>;
  actions: { intent: string; label: string; danger?: boolean }[];
  error?: string | null;
  label?: string;
}) {
  const { t } = useTranslation("admin");
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("reportId") === (hidden.reportId ?? null);
  const fieldId = `${id}-reason`;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  return (
    <Form method="post" className="space-y-2">
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <label htmlFor={fieldId} className="block text-sm font-semibold text-stone-800">
        {label ?? t("reason.label")}
      </label>
      <textarea
        id={fieldId}
        name="reason"
        required
        rows={2}
        maxLength={1000}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${hintId} ${errorId}` : hintId}
        className="input"
      />
      <p id={hintId} className="text-xs text-stone-700">
        {t("reason.hint")}
      </p>
      {error ? (
        <p id={errorId} role="alert" className="text-sm font-medium text-red-700">
          {t(error)}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {actions.map((action) => (
          <button
            key={action.intent}
            type="submit"
            name="intent"
            value={action.intent}
            disabled={busy}
            className={`btn min-h-11 ${action.danger ? "bg-red-700 text-white hover:bg-red-800" : "btn-secondary"}`}
          >
            {action.label}
          </button>
        ))}
      </div>
    </Form>
  );
}
