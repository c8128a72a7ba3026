import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { QueuedReport } from "./reports.server";
import { useConsoleFormat } from "./console-ui";

type ShownReport = Omit<QueuedReport, "thing"> & { thing: QueuedReport["thing"] };

/** What was reported, by whom, about whom, and the reporter's own words. */
export function ReportSummary({ report }: { report: ShownReport }) {
  const { t } = useTranslation("admin");
  const format = useConsoleFormat();
  const { thing } = report;
  return (
    <div className="space-y-2">
      <p className="flex flex-wrap items-center gap-2 text-sm">
        <span className="rounded-full bg-stone-200 px-2 font-semibold">
          {t(`reports.subject.${report.subjectType}`)}
        </span>
        <span className="font-semibold">{t(`safety:reasons.${report.reason}`)}</span>
        <span className="text-stone-700">{format.when(report.createdAt)}</span>
        {report.resolution ? (
          <span className="rounded-full bg-brand-100 px-2 text-brand-900">
            {t(`reports.resolution.${report.resolution}`)}
          </span>
        ) : null}
      </p>
      <p className="text-sm">
        {t("reports.about")}{" "}
        <Link to={`/admin/people/${report.reported.id}`} className="font-semibold underline">
          {report.reported.name}
        </Link>
        {report.reported.suspended ? ` (${t("people.suspended")})` : null} · {t("reports.by")}{" "}
        <Link to={`/admin/people/${report.reporter.id}`} className="underline">
          {report.reporter.name}
        </Link>
      </p>
      <blockquote className="rounded-xl bg-stone-100 p-3 text-sm">
        {thing.kind === "profile" ? (
          <>
            <p className="font-semibold">{thing.name}</p>
            <p className="break-words whitespace-pre-line">{thing.bio || t("reports.emptyBio")}</p>
          </>
        ) : thing.kind === "message" ? (
          <>
            <p className="break-words whitespace-pre-line">{thing.body}</p>
            {thing.media?.type === "image" ? (
              <a href={thing.media.url} target="_blank" rel="noreferrer" className="mt-2 block">
                <img
                  src={thing.media.previewUrl}
                  alt={t("reports.attachment")}
                  loading="lazy"
                  className="max-h-48 rounded-lg"
                />
              </a>
            ) : thing.media?.type === "video" ? (
              <video
                src={thing.media.url}
                controls
                preload="metadata"
                aria-label={t("reports.attachment")}
                className="mt-2 max-h-48 rounded-lg"
              />
            ) : null}
            <p className="mt-1 text-xs text-stone-700">
              {format.when(thing.sentAt)}
              {thing.hidden ? ` · ${t("reports.hidden")}` : null}
            </p>
          </>
        ) : thing.kind === "review" ? (
          <>
            <p>{t("reports.stars", { stars: thing.rating })}</p>
            <p className="break-words whitespace-pre-line">{thing.comment}</p>
            {thing.hidden ? <p className="mt-1 text-xs text-stone-700">{t("reports.hidden")}</p> : null}
          </>
        ) : thing.kind === "booking" ? (
          <p>
            {t("reports.booking", {
              pet: thing.petName,
              when: format.when(thing.startAt),
              status: t(`bookings:status.${thing.status}`),
            })}
          </p>
        ) : (
          <p>{t("reports.missing")}</p>
        )}
      </blockquote>
      {report.words ? (
        <div className="text-sm">
          <p className="font-semibold">{t("reports.words")}</p>
          <p className="break-words whitespace-pre-line">{report.words}</p>
        </div>
      ) : null}
    </div>
  );
}
