import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatMoney } from "~/platform/money";
import { FieldErrors } from "~/platform/ui/field";
import { SubmitButton } from "~/platform/ui/submit-button";
import type { SeriesDate, SeriesView } from "./views.server";

interface Field {
  id: string;
  name: string;
  errorId: string;
  errors?: string[];
}

export interface WeekdayName {
  weekday: number;
  name: string;
}

/** Monday to Sunday as checkboxes, the chosen ones ticked. */
export function WeekdayChoice({
  field,
  names,
  chosen,
  legend,
}: {
  field: Field;
  names: WeekdayName[];
  chosen: number[];
  legend: string;
}) {
  const invalid = Boolean(field.errors?.length);
  return (
    <fieldset className="space-y-2" aria-describedby={invalid ? field.errorId : undefined}>
      <legend className="text-sm font-semibold text-stone-800">{legend}</legend>
      <div className="flex flex-wrap gap-2">
        {names.map(({ weekday, name }) => (
          <label
            key={weekday}
            className="flex min-h-11 min-w-16 cursor-pointer items-center justify-center gap-2 rounded-xl border border-stone-300 bg-white px-3 has-checked:border-brand-700 has-checked:bg-brand-50 has-focus-visible:outline-3 has-focus-visible:outline-brand-700"
          >
            <input
              type="checkbox"
              name={field.name}
              value={weekday}
              defaultChecked={chosen.includes(weekday)}
              aria-invalid={invalid || undefined}
              className="size-4 accent-brand-700"
            />
            <span className="font-medium">{name}</span>
          </label>
        ))}
      </div>
      <FieldErrors id={field.errorId} errors={field.errors} />
    </fieldset>
  );
}

/**
 * The request page's "How often": once, or every week on the ticked days until a last date (or until ended).
 * The weekly part shows only while "Every week" is chosen (CSS alone, so it works without JavaScript).
 */
export function RepeatChoice({
  fields,
  names,
  firstWeekday,
  firstDay,
  card,
  note,
}: {
  fields: { repeat: Field & { initialValue?: unknown }; weekdays: Field; until: Field };
  names: WeekdayName[];
  firstWeekday: number;
  firstDay: string;
  card: { label: string } | null;
  /** What each date is, where the page's own fields say it (day care's drop-off and pick-up). */
  note?: string;
}) {
  const { t } = useTranslation("series");
  const weekly = fields.repeat.initialValue === "weekly";
  return (
    <div className="group space-y-3">
      <fieldset className="space-y-2">
        <legend className="text-sm font-semibold text-stone-800">{t("request.howOften")}</legend>
        {(["once", "weekly"] as const).map((choice) => (
          <label
            key={choice}
            className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl border border-stone-300 bg-white p-3 has-checked:border-brand-700 has-checked:bg-brand-50 has-focus-visible:outline-3 has-focus-visible:outline-brand-700"
          >
            <input
              type="radio"
              name={fields.repeat.name}
              value={choice}
              defaultChecked={choice === "weekly" ? weekly : !weekly}
              className="size-4 accent-brand-700"
            />
            <span className="font-medium">{t(`request.${choice}`)}</span>
          </label>
        ))}
      </fieldset>
      <div className="hidden space-y-3 group-has-[[value=weekly]:checked]:block rounded-xl border border-stone-200 bg-stone-50 p-3">
        {note ? <p className="text-sm text-stone-700">{note}</p> : null}
        <WeekdayChoice field={fields.weekdays} names={names} chosen={[firstWeekday]} legend={t("request.weekdays")} />
        <div className="space-y-1.5">
          <label htmlFor={fields.until.id} className="block text-sm font-semibold text-stone-800">
            {t("request.lastDay")}
          </label>
          <input
            id={fields.until.id}
            name={fields.until.name}
            type="date"
            min={firstDay}
            aria-invalid={fields.until.errors?.length ? true : undefined}
            aria-describedby={`${fields.until.id}-hint${fields.until.errors?.length ? ` ${fields.until.errorId}` : ""}`}
            className="input"
          />
          <p id={`${fields.until.id}-hint`} className="text-sm text-stone-600">
            {t("request.lastDayHint")}
          </p>
          <FieldErrors id={fields.until.errorId} errors={fields.until.errors} />
        </div>
        {card ? (
          <p className="text-sm text-stone-700">{t("request.card", { card: card.label })}</p>
        ) : (
          <p className="text-sm text-stone-700">
            {t("request.noCard")}{" "}
            <Link to="/subscription/cards/new" className="font-semibold text-brand-800 underline">
              {t("request.addCard")}
            </Link>
          </p>
        )}
      </div>
    </div>
  );
}

export interface ListedSeries {
  id: string;
  summary: string;
  status: "requested" | "active" | "declined" | "withdrawn" | "ended";
  as: "owner" | "sitter";
  awaitsMe: boolean;
  next: Pick<SeriesDate, "day" | "label" | "state">[];
}

/** Weekly care on a person's bookings page: the owner's "Every Mon, Wed, Fri at 08:00 with Ana", the sitter's regular clients. */
export function SeriesList({ series }: { series: ListedSeries[] }) {
  const { t } = useTranslation("series");
  if (series.length === 0) return null;
  return (
    <section aria-labelledby="series-title" className="space-y-3">
      <h2 id="series-title" className="text-lg font-bold">
        {t("list.title")}
      </h2>
      <ul className="space-y-2">
        {series.map((item) => (
          <li key={item.id}>
            <Link
              to={`/series/${item.id}`}
              className="card block space-y-1 hover:bg-stone-50 focus-visible:outline-3 focus-visible:outline-brand-700"
            >
              <span className="flex items-start justify-between gap-3">
                <span className="min-w-0 font-semibold">
                  {item.as === "sitter" ? (
                    <span className="block text-sm text-brand-800">{t("list.regular")}</span>
                  ) : null}
                  {item.summary}
                </span>
                <span className="shrink-0 rounded-full bg-stone-100 px-2.5 py-1 text-sm font-semibold text-stone-800">
                  {item.awaitsMe ? t("list.awaitsYou") : t(`status.${item.status}`)}
                </span>
              </span>
              {item.next.length > 0 ? (
                <span className="block text-sm text-stone-700">
                  {t("list.next")}{" "}
                  {item.next.map((date, index) => (
                    <span key={date.day}>
                      {index > 0 ? ", " : ""}
                      {date.state === "skipped" ? t("list.skippedDate", { date: date.label }) : date.label}
                    </span>
                  ))}
                </span>
              ) : null}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The intents a plain button posts on the series page. */
export const SIMPLE_INTENTS = [
  "accept",
  "decline",
  "withdraw",
  "end",
  "accept-change",
  "decline-change",
  "withdraw-change",
] as const;
export type SimpleIntent = (typeof SIMPLE_INTENTS)[number];

type PageSeries = Omit<SeriesView, "next"> & { next: SeriesDate[] };

function ActionButton({ intent, variant }: { intent: SimpleIntent; variant: "primary" | "secondary" }) {
  const { t } = useTranslation("series");
  return (
    <Form method="post" className="flex *:flex-1">
      <SubmitButton name="intent" value={intent} variant={variant}>
        {t(`page.${intent}`)}
      </SubmitButton>
    </Form>
  );
}
const button = (intent: SimpleIntent, variant: "primary" | "secondary") => (
  <ActionButton intent={intent} variant={variant} />
);

/** What the series is: days, time, service, pets, dates, the policy; and whose answer it waits for. */
export function SeriesSummary({ series }: { series: PageSeries }) {
  const { t, i18n } = useTranslation(["series", "bookings", "profile"]);
  const name = series.other.name;
  const summary = t("summary", { days: series.days, time: series.startTime, name });
  return (
    <section className="card space-y-2" aria-labelledby="series-summary">
      <h2 id="series-summary" className="font-semibold">
        {summary}
      </h2>
      <p className="text-sm font-semibold text-stone-800">
        {series.as === "sitter" && series.status === "active" ? t("list.regular") : t(`status.${series.status}`)}
      </p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="text-stone-600">{t("page.service")}</dt>
        <dd>
          {t(`profile:services.${series.service}`)} ·{" "}
          {series.service === "day_care"
            ? `${series.startTime}–${series.endTime}`
            : t("profile:services.minutes", { minutes: series.minutes })}{" "}
          · {formatMoney(series.priceCents, i18n.language)}
        </dd>
        <dt className="text-stone-600">{t("page.pets")}</dt>
        <dd>{series.pets}</dd>
        <dt className="text-stone-600">{t("page.from")}</dt>
        <dd>{series.firstDayText}</dd>
        <dt className="text-stone-600">{t("page.until")}</dt>
        <dd>{series.lastDayText ?? t("page.untilEnded")}</dd>
      </dl>
      <p className="text-sm text-stone-600">
        {t("bookings:request.timeZone", { zone: series.timeZone.replaceAll("_", " ") })}
      </p>
      <p className="text-sm text-stone-700">
        {t("page.howItWorks")} {t(`bookings:policy.terms.${series.policy}`)}
      </p>
      {series.status === "requested" ? (
        <p className="text-stone-800">{t(series.as === "sitter" ? "page.awaitsYou" : "page.awaitsThem", { name })}</p>
      ) : null}
    </section>
  );
}

/** The sitter's accept or decline, the owner's withdrawal, while the series is asked for. */
export function SeriesAnswers({ series }: { series: PageSeries }) {
  return (
    <>
      {series.can.accept || series.can.decline || series.can.withdraw ? (
        <div className="flex flex-wrap gap-3 *:flex-1">
          {series.can.accept ? button("accept", "primary") : null}
          {series.can.decline ? button("decline", "secondary") : null}
          {series.can.withdraw ? button("withdraw", "secondary") : null}
        </div>
      ) : null}
    </>
  );
}

/** A change of days or time waiting for an answer. */
export function PendingChange({ series }: { series: PageSeries }) {
  const { t } = useTranslation("series");
  const name = series.other.name;
  return (
    <>
      {series.pending ? (
        <section className="card space-y-3" aria-labelledby="series-change-pending">
          <h2 id="series-change-pending" className="font-semibold">
            {t("change.pendingTitle")}
          </h2>
          <p>
            {t("change.pending", {
              days: series.pending.days,
              time: series.pending.startTime,
              date: series.pending.fromDayText,
            })}
          </p>
          <p className="text-sm text-stone-700">
            {series.pending.mine ? t("change.awaitsThem", { name }) : t("change.awaitsYou", { name })}
          </p>
          <div className="flex flex-wrap gap-3 *:flex-1">
            {series.can.acceptChange ? button("accept-change", "primary") : null}
            {series.can.declineChange ? button("decline-change", "secondary") : null}
            {series.can.withdrawChange ? button("withdraw-change", "secondary") : null}
          </div>
        </section>
      ) : null}
    </>
  );
}

/** The next dates, each booked, planned or skipped, with a skip button while the series goes on. */
export function NextDates({ series }: { series: PageSeries }) {
  const { t } = useTranslation("series");
  if (series.next.length === 0) return null;
  return (
    <section className="space-y-3" aria-labelledby="series-next">
      <h2 id="series-next" className="text-lg font-bold">
        {t("page.next")}
      </h2>
      {series.as === "owner" && series.status === "active" ? (
        <p className="text-sm text-stone-700">{t("page.skipPolicy")}</p>
      ) : null}
      <ul className="space-y-2">
        {series.next.map((date) => (
          <li key={date.day} className="card flex items-center justify-between gap-3">
            <span className="min-w-0">
              <span className="block font-semibold">{date.label}</span>
              <span className="block text-sm text-stone-700">{t(`dates.${date.state}`)}</span>
            </span>
            {date.canSkip ? (
              <Form method="post">
                <input type="hidden" name="intent" value="skip" />
                <input type="hidden" name="day" value={date.day} />
                <SubmitButton variant="secondary">
                  {t("page.skip")}
                  <span className="sr-only"> {date.label}</span>
                </SubmitButton>
              </Form>
            ) : null}
          </li>
        ))}
      </ul>
      <Link to="/bookings?tab=accepted" className="inline-block text-sm font-semibold text-brand-800 underline">
        {t("page.bookedOnes")}
      </Link>
    </section>
  );
}

/** Ending the series, with what it does to booked dates for this side. */
export function EndSeries({ series }: { series: PageSeries }) {
  const { t } = useTranslation("series");
  return (
    <>
      {series.can.end ? (
        <section className="space-y-2" aria-labelledby="series-end">
          <h2 id="series-end" className="text-lg font-bold">
            {t("page.endTitle")}
          </h2>
          <p className="text-sm text-stone-700">{t(series.as === "owner" ? "page.endOwner" : "page.endSitter")}</p>
          {button("end", "secondary")}
        </section>
      ) : null}
    </>
  );
}
