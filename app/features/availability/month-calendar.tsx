import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SubmitButton } from "~/platform/ui/submit-button";
import type { CalendarDay } from "./days-off.server";

export interface MonthCalendarView {
  month: string;
  monthError: boolean;
  monthLabel: string;
  weekdays: string[];
  leading: number;
  days: CalendarDay[];
  previous: string | null;
  next: string | null;
}

/**
 * A month of whole days, each a "Free" checkbox, saved together by one plain form (works without
 * JavaScript). Past days are shown but cannot change.
 */
export function MonthCalendar({ calendar, error }: { calendar: MonthCalendarView; error?: string }) {
  const { t } = useTranslation("availability");
  const cells: (CalendarDay | null)[] = [...Array<null>(calendar.leading).fill(null), ...calendar.days];
  while (cells.length % 7) cells.push(null);
  const weeks = Array.from({ length: cells.length / 7 }, (_, i) => cells.slice(i * 7, i * 7 + 7));
  const shownError = error ?? (calendar.monthError ? "availability:month.errors.badMonth" : undefined);
  return (
    <section aria-labelledby="month-title" className="card space-y-3">
      <h2 id="month-title" className="text-lg font-semibold">
        {t("month.title")}
      </h2>
      <p className="text-sm text-stone-700">{t("month.help")}</p>
      <nav aria-label={t("month.navigation")} className="flex items-center justify-between gap-2">
        {calendar.previous ? (
          <Link to={`/availability?month=${calendar.previous}`} className="btn btn-secondary px-3 text-sm">
            {t("month.previous")}
          </Link>
        ) : (
          <span />
        )}
        {calendar.next ? (
          <Link to={`/availability?month=${calendar.next}`} className="btn btn-secondary px-3 text-sm">
            {t("month.next")}
          </Link>
        ) : null}
      </nav>
      <div
        role="alert"
        className={shownError ? "rounded-xl bg-red-50 p-3 text-sm font-medium text-red-800" : "sr-only"}
      >
        {shownError ? t(shownError) : null}
      </div>
      <Form method="post" key={calendar.month} className="space-y-3">
        <input type="hidden" name="month" value={calendar.month} />
        <table className="w-full table-fixed border-collapse text-center text-sm">
          <caption className="pb-2 text-base font-semibold">{calendar.monthLabel}</caption>
          <thead>
            <tr>
              {calendar.weekdays.map((weekday) => (
                <th key={weekday} scope="col" className="pb-1 font-medium text-stone-700">
                  {weekday}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {weeks.map((week) => (
              <tr key={week.find(Boolean)?.day}>
                {week.map((cell, index) =>
                  cell ? (
                    <td key={cell.day} className="p-0.5">
                      <label
                        className={`flex min-h-11 flex-col items-center rounded-lg p-1 ${
                          cell.editable ? "cursor-pointer" : "opacity-60"
                        } ${cell.free ? "bg-emerald-50" : "bg-stone-200"}`}
                      >
                        <span aria-hidden className="font-semibold">
                          {cell.date}
                        </span>
                        <input
                          type="checkbox"
                          name="free"
                          value={cell.day}
                          defaultChecked={cell.free}
                          disabled={!cell.editable}
                          aria-label={t("month.dayLabel", { day: cell.label })}
                          className="peer size-5"
                        />
                        <span aria-hidden className="hidden text-xs peer-checked:inline">
                          {t("month.free")}
                        </span>
                        <span aria-hidden className="text-xs peer-checked:hidden">
                          {t("month.notFree")}
                        </span>
                      </label>
                    </td>
                  ) : (
                    <td key={`blank-${index}`} />
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
        <SubmitButton name="intent" value="month" className="w-full">
          {t("month.save")}
        </SubmitButton>
      </Form>
    </section>
  );
}
