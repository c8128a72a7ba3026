import { getFormProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { useSchemaValidation, type ConstraintOf } from "~/platform/forms";
import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CHAT_FILE_MAX_BYTES, CHAT_FILE_TYPES } from "~/features/media";
import { FieldErrors, FormError, TextAreaField, TextField } from "~/platform/ui/field";
import { SubmitButton } from "~/platform/ui/submit-button";
import { QUICK_NOTES, VISIT_NOTE_MAX } from "./machine";
import type { detailsSchema, typedWalkSchema } from "./schema";
import type { VisitPageData } from "./views.server";
import { WalkRecorder } from "./walk-recorder";

type Visit = NonNullable<VisitPageData["visit"]>;
export type VisitReplies = { form?: "details" | "walk"; reply?: SubmissionResult<string[]>; error?: string };

export function VisitStatus({ page }: { page: VisitPageData }) {
  const { t } = useTranslation("care");
  const { visit } = page;
  return (
    <section aria-labelledby="visit-status" className="card space-y-2" aria-live="polite">
      <h2 id="visit-status" className="text-lg font-semibold">
        {t(page.daily ? "daily.title" : "visit.title")}
      </h2>
      {page.daily ? <p className="text-sm text-stone-700">{t("daily.intro")}</p> : null}
      <p className="text-stone-800">
        {!visit
          ? t(page.daily ? "daily.notStarted" : "visit.notStarted")
          : visit.status === "checked-in"
            ? t("visit.checkedInAt", { time: visit.checkedIn })
            : t("visit.checkedOutAt", { in: visit.checkedIn, out: visit.checkedOut })}
      </p>
      {page.can.checkIn ? (
        <Form method="post">
          <SubmitButton name="intent" value="check-in" className="w-full">
            {t(page.daily ? "daily.checkIn" : "visit.checkIn")}
          </SubmitButton>
        </Form>
      ) : null}
    </section>
  );
}

export function Checklist({ visit, canTick }: { visit: Visit; canTick: boolean }) {
  const { t } = useTranslation("care");
  return (
    <section aria-labelledby="visit-checklist" className="card space-y-2">
      <h2 id="visit-checklist" className="text-lg font-semibold">
        {t("report.checklist")}
      </h2>
      {visit.items.length === 0 ? <p className="text-stone-700">{t("report.noChecklist")}</p> : null}
      <ul className="divide-y divide-stone-100">
        {visit.items.map((item) => (
          <li key={item.position} className="flex flex-wrap items-center justify-between gap-2 py-2">
            <span className="min-w-0">
              <span className="block text-xs font-semibold text-stone-600 uppercase">{t(`kinds.${item.kind}`)}</span>
              <span className="block break-words">{item.label}</span>
            </span>
            {item.done ? (
              <span className="rounded-full bg-emerald-100 px-2.5 py-1 text-sm font-semibold text-emerald-950">
                {t("report.doneAt", { time: item.done })}
              </span>
            ) : item.missed ? (
              <span className="rounded-full bg-red-100 px-2.5 py-1 text-sm font-bold text-red-900">
                {t("report.missed")}
              </span>
            ) : canTick ? (
              <Form method="post">
                <input type="hidden" name="position" value={item.position} />
                <SubmitButton name="intent" value="tick" variant="secondary">
                  {t("visit.tick", { label: item.label })}
                </SubmitButton>
              </Form>
            ) : (
              <span className="text-sm text-stone-700">{t("report.notYet")}</span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function DetailsForm({
  visit,
  lastResult,
  constraint,
}: {
  visit: Visit;
  lastResult?: SubmissionResult<string[]>;
  constraint: ConstraintOf<typeof detailsSchema>;
}) {
  const { t } = useTranslation("care");
  const [form, fields] = useForm({
    id: "visit-details",
    ...useSchemaValidation("visit-details", () => import("./schema").then((schemas) => schemas.detailsSchema)),
    lastResult,
    defaultValue: { quickNotes: visit.quickNotes, note: visit.note },
    constraint,
  });
  return (
    <Form method="post" {...getFormProps(form)} noValidate className="card space-y-3">
      <FormError form={form} />
      <fieldset>
        <legend className="text-lg font-semibold">{t("quick.legend")}</legend>
        <div className="mt-2 flex flex-wrap gap-2">
          {QUICK_NOTES.map((note) => (
            <label key={note} className="inline-flex min-h-11 items-center gap-2 rounded-xl bg-stone-100 px-3">
              <input
                type="checkbox"
                name={fields.quickNotes.name}
                value={note}
                defaultChecked={visit.quickNotes.includes(note)}
                className="size-5"
              />
              {t(`quick.${note}`)}
            </label>
          ))}
        </div>
        <FieldErrors id={fields.quickNotes.errorId} errors={fields.quickNotes.errors} />
      </fieldset>
      <TextAreaField meta={fields.note} label={t("visit.note")} rows={3} maxLength={VISIT_NOTE_MAX} />
      <SubmitButton name="intent" value="details" variant="secondary">
        {t("visit.saveDetails")}
      </SubmitButton>
    </Form>
  );
}

export function MediaForm({ error }: { error?: string }) {
  const { t } = useTranslation("care");
  return (
    <Form method="post" encType="multipart/form-data" className="card space-y-2">
      <input type="hidden" name="intent" value="media" />
      <label htmlFor="visit-media" className="block text-lg font-semibold">
        {t("visit.media")}
      </label>
      <p id="visit-media-hint" className="text-sm text-stone-600">
        {t("visit.mediaHint", { size: Math.round(CHAT_FILE_MAX_BYTES / 1024 / 1024) })}
      </p>
      <input
        id="visit-media"
        type="file"
        name="media"
        required
        accept={CHAT_FILE_TYPES.join(",")}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "visit-media-hint visit-media-error" : "visit-media-hint"}
        className="block w-full text-sm text-stone-700 file:mr-3 file:min-h-10 file:rounded-xl file:border-0 file:bg-brand-100 file:px-3 file:font-semibold file:text-brand-800"
      />
      {error ? (
        <p id="visit-media-error" role="alert" className="text-sm font-medium text-red-700">
          {t(error)}
        </p>
      ) : null}
      <SubmitButton name="intent" value="media" variant="secondary">
        {t("visit.upload")}
      </SubmitButton>
    </Form>
  );
}

export function WalkForms({
  lastResult,
  constraint,
}: {
  lastResult?: SubmissionResult<string[]>;
  constraint: ConstraintOf<typeof typedWalkSchema>;
}) {
  const { t } = useTranslation("care");
  const [form, fields] = useForm({
    id: "visit-walk",
    ...useSchemaValidation("visit-walk", () => import("./schema").then((schemas) => schemas.typedWalkSchema)),
    lastResult,
    constraint,
  });
  return (
    <section aria-labelledby="visit-walk-title" className="card space-y-3">
      <h2 id="visit-walk-title" className="text-lg font-semibold">
        {t("walk.title")}
      </h2>
      <WalkRecorder />
      <Form method="post" {...getFormProps(form)} noValidate className="space-y-3">
        <p className="text-sm text-stone-700">{t("walk.typeIn")}</p>
        <FormError form={form} />
        <TextField
          meta={fields.distanceKm as unknown as FieldMetadata<string>}
          label={t("walk.distanceKm")}
          inputMode="decimal"
        />
        <TextField
          meta={fields.durationMinutes as unknown as FieldMetadata<string>}
          label={t("walk.durationMinutes")}
          inputMode="numeric"
        />
        <SubmitButton name="intent" value="walk" variant="secondary">
          {t("walk.save")}
        </SubmitButton>
      </Form>
    </section>
  );
}

export function WalkSummary({ walk }: { walk: NonNullable<Visit["walk"]> }) {
  const { t } = useTranslation("care");
  return (
    <section aria-labelledby="visit-walk-summary" className="card space-y-2">
      <h2 id="visit-walk-summary" className="text-lg font-semibold">
        {t("walk.title")}
      </h2>
      {walk.outline ? (
        <svg
          viewBox="0 0 320 200"
          role="img"
          aria-label={t("walk.routeLabel", { distance: walk.distance, duration: walk.duration })}
          className="w-full rounded-xl bg-emerald-50"
        >
          <polyline
            points={walk.outline}
            fill="none"
            stroke="#0f766e"
            strokeWidth="4"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
      ) : null}
      <p className="font-medium">{t("walk.summary", { distance: walk.distance, duration: walk.duration })}</p>
    </section>
  );
}

export function ReportExtras({ visit }: { visit: Visit }) {
  const { t } = useTranslation("care");
  if (!visit.quickNotes.length && !visit.note && !visit.media.length) return null;
  return (
    <section aria-labelledby="visit-extras" className="card space-y-3">
      <h2 id="visit-extras" className="text-lg font-semibold">
        {t("report.notes")}
      </h2>
      {visit.quickNotes.length ? <p>{visit.quickNotes.map((note) => t(`quick.${note}`)).join(" · ")}</p> : null}
      {visit.note ? <p className="whitespace-pre-line">{visit.note}</p> : null}
      {visit.media.length ? (
        <ul className="grid grid-cols-2 gap-2">
          {visit.media.map((media, index) => (
            <li key={media.url}>
              {media.type === "image" ? (
                <a href={media.url}>
                  <img
                    src={media.previewUrl}
                    alt={t("report.photoAlt", { number: index + 1 })}
                    loading="lazy"
                    className="aspect-square w-full rounded-xl object-cover"
                  />
                </a>
              ) : (
                <video
                  src={media.url}
                  controls
                  preload="metadata"
                  aria-label={t("report.videoLabel", { number: index + 1 })}
                  className="w-full rounded-xl"
                />
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

export function CheckOutForm({ daily = false }: { daily?: boolean }) {
  const { t } = useTranslation("care");
  return (
    <Form method="post" className="card space-y-2">
      <p className="text-sm text-stone-700">{t(daily ? "daily.checkOutHint" : "visit.checkOutHint")}</p>
      <SubmitButton name="intent" value="check-out" className="w-full">
        {t(daily ? "daily.checkOut" : "visit.checkOut")}
      </SubmitButton>
    </Form>
  );
}

/** A stay's updates of earlier days, newest first, each as sent (or still open). */
export function EarlierUpdates({ updates }: { updates: VisitPageData["earlier"] }) {
  const { t } = useTranslation("care");
  if (updates.length === 0) return null;
  return (
    <section aria-labelledby="earlier-updates" className="space-y-2">
      <h2 id="earlier-updates" className="text-lg font-semibold">
        {t("daily.earlier")}
      </h2>
      <ul className="space-y-2">
        {updates.map((update) => (
          <li key={update.day} className="card space-y-2">
            <h3 className="font-semibold">{update.dayLabel}</h3>
            <p className="text-sm text-stone-700">
              {update.checkedOut ? t("daily.sentAt", { time: update.checkedOut }) : t("daily.open")}
            </p>
            {update.items.length ? (
              <ul className="space-y-1 text-sm">
                {update.items.map((item) => (
                  <li key={item.position} className="flex flex-wrap justify-between gap-2">
                    <span className="min-w-0 break-words">{item.label}</span>
                    <span className={item.missed ? "font-bold text-red-900" : "text-stone-700"}>
                      {item.done
                        ? t("report.doneAt", { time: item.done })
                        : item.missed
                          ? t("report.missed")
                          : t("report.notYet")}
                    </span>
                  </li>
                ))}
              </ul>
            ) : null}
            {update.quickNotes.length ? (
              <p className="text-sm">{update.quickNotes.map((note) => t(`quick.${note}`)).join(" · ")}</p>
            ) : null}
            {update.note ? <p className="whitespace-pre-line">{update.note}</p> : null}
            {update.media.length ? (
              <ul className="grid grid-cols-3 gap-2">
                {update.media.map((media, index) => (
                  <li key={media.url}>
                    <a href={media.url} className="block">
                      {media.type === "image" ? (
                        <img
                          src={media.previewUrl}
                          alt={t("report.photoAlt", { number: index + 1 })}
                          loading="lazy"
                          className="aspect-square w-full rounded-xl object-cover"
                        />
                      ) : (
                        t("report.videoLabel", { number: index + 1 })
                      )}
                    </a>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
