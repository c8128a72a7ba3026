import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { MeetGreetPlace, MeetGreetStatus } from "~db/schema";
import { FieldErrors } from "~/platform/ui/field";
import { MEET_GREET_PLACES } from "./machine";

interface Field {
  id: string;
  name: string;
  errorId: string;
  errors?: string[];
  initialValue?: unknown;
}

/** Day, time and place: the same fields for a proposal and for another time offered in answer. */
export function ProposalFields({
  fields,
  today,
  timeZone,
}: {
  fields: { day: Field; time: Field; place: Field; placeNote: Field };
  today: string;
  timeZone: string;
}) {
  const { t } = useTranslation(["meetGreets", "bookings"]);
  const input = (field: Field, label: string, type: "date" | "time") => (
    <div className="space-y-1.5">
      <label htmlFor={field.id} className="block text-sm font-semibold text-stone-800">
        {label}
      </label>
      <input
        id={field.id}
        name={field.name}
        type={type}
        min={type === "date" ? today : undefined}
        step={type === "time" ? 900 : undefined}
        defaultValue={typeof field.initialValue === "string" ? field.initialValue : undefined}
        aria-invalid={field.errors?.length ? true : undefined}
        aria-describedby={field.errors?.length ? field.errorId : undefined}
        className="input"
      />
      <FieldErrors id={field.errorId} errors={field.errors} />
    </div>
  );
  const chosen = typeof fields.place.initialValue === "string" ? fields.place.initialValue : "owners_home";
  return (
    <>
      <div className="grid grid-cols-2 gap-3">
        {input(fields.day, t("form.day"), "date")}
        {input(fields.time, t("form.time"), "time")}
      </div>
      <p className="text-sm text-stone-600">
        {t("bookings:request.timeZone", { zone: timeZone.replaceAll("_", " ") })}
      </p>
      <fieldset className="space-y-2" aria-describedby={fields.place.errors?.length ? fields.place.errorId : undefined}>
        <legend className="text-sm font-semibold text-stone-800">{t("form.place")}</legend>
        {MEET_GREET_PLACES.map((place) => (
          <label
            key={place}
            className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl border border-stone-300 bg-white p-3 has-checked:border-brand-700 has-checked:bg-brand-50 has-focus-visible:outline-3 has-focus-visible:outline-brand-700"
          >
            <input
              type="radio"
              name={fields.place.name}
              value={place}
              defaultChecked={place === chosen}
              className="size-4 accent-brand-700"
            />
            <span className="font-medium">{t(`places.${place}`)}</span>
          </label>
        ))}
        <FieldErrors id={fields.place.errorId} errors={fields.place.errors} />
      </fieldset>
      <div className="space-y-1.5">
        <label htmlFor={fields.placeNote.id} className="block text-sm font-semibold text-stone-800">
          {t("form.placeNote")}
        </label>
        <input
          id={fields.placeNote.id}
          name={fields.placeNote.name}
          maxLength={200}
          defaultValue={typeof fields.placeNote.initialValue === "string" ? fields.placeNote.initialValue : undefined}
          aria-invalid={fields.placeNote.errors?.length ? true : undefined}
          aria-describedby={fields.placeNote.errors?.length ? fields.placeNote.errorId : undefined}
          className="input"
        />
        <FieldErrors id={fields.placeNote.errorId} errors={fields.placeNote.errors} />
      </div>
    </>
  );
}

export interface ListedMeetGreet {
  id: string;
  otherName: string;
  when: string;
  status: MeetGreetStatus;
  place: MeetGreetPlace;
  awaitsMe: boolean;
}

/** The meet & greets on a person's bookings page, each linking to its own page. */
export function MeetGreetList({ meetGreets }: { meetGreets: ListedMeetGreet[] }) {
  const { t } = useTranslation("meetGreets");
  if (meetGreets.length === 0) return null;
  return (
    <section aria-labelledby="meet-greets-title" className="space-y-3">
      <h2 id="meet-greets-title" className="text-lg font-bold">
        {t("list.title")}
      </h2>
      <ul className="space-y-2">
        {meetGreets.map((meeting) => (
          <li key={meeting.id}>
            <Link
              to={`/meet/${meeting.id}`}
              className="card flex items-center justify-between gap-3 hover:bg-stone-50 focus-visible:outline-3 focus-visible:outline-brand-700"
            >
              <span className="min-w-0">
                <span className="block truncate font-semibold">{t("list.with", { name: meeting.otherName })}</span>
                <span className="block text-sm text-stone-700">
                  {meeting.when} · {t(`places.${meeting.place}`)}
                </span>
              </span>
              <span className="shrink-0 rounded-full bg-stone-100 px-2.5 py-1 text-sm font-semibold text-stone-800">
                {meeting.awaitsMe ? t("list.awaitsYou") : t(`status.${meeting.status}`)}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
