import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ReasonForm, ReportSummary, reportActionSchema, useConsoleFormat } from "~/features/admin";
import { listReports, resolveReport, type ReportStatus } from "~/features/admin/index.server";
import { formDataOf } from "~/platform/forms.server";
import { requireAdmin } from "~/platform/operator.server";
import { redirectWithToast } from "~/platform/toast.server";
import { TabLinks } from "~/platform/ui/tab-links";

export const handle = { i18n: ["admin", "safety", "bookings"], title: "admin:reports.title" };

const STATUSES: readonly ReportStatus[] = ["open", "closed"];
const statusOf = (value: string | null): ReportStatus => (value === "closed" ? "closed" : "open");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const status = statusOf(new URL(request.url).searchParams.get("status"));
  return { status, reports: await listReports(status) };
}

export async function action({ request }: ActionFunctionArgs) {
  const operator = await requireAdmin(request);
  const submission = parseWithZod(await formDataOf(request), { schema: reportActionSchema });
  const reportId = String(submission.payload.reportId ?? "");
  if (submission.status !== "success") {
    const error = Object.values(submission.error ?? {}).flat()[0] ?? "admin:errors.reasonRequired";
    return data({ reportId, error }, { status: 400 });
  }
  const result = await resolveReport(
    operator.id,
    submission.value.reportId,
    submission.value.intent,
    submission.value.reason,
  );
  if (result === "not-found") return data({ reportId, error: "admin:errors.notFound" }, { status: 404 });
  if (result !== "done") return data({ reportId, error: `admin:errors.${result}` }, { status: 400 });
  return redirectWithToast("/admin/reports", {
    type: "success",
    title: `admin:toast.report.${submission.value.intent}`,
  });
}

export default function AdminReports() {
  const { t } = useTranslation("admin");
  const { status, reports } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const format = useConsoleFormat();
  return (
    <>
      <h1 className="mb-3 text-2xl font-bold tracking-tight">{t("reports.title")}</h1>
      <TabLinks
        label={t("reports.tabs")}
        tabs={STATUSES}
        current={status}
        hrefOf={(tab) => (tab === "open" ? "/admin/reports" : "/admin/reports?status=closed")}
        labelOf={(tab) => t(`reports.status.${tab}`)}
        className="mb-4"
      />
      {answer?.error && !reports.some((report) => report.id === answer.reportId) ? (
        <p role="alert" className="mb-4 rounded-xl bg-red-50 p-3 text-sm font-medium text-red-800 ring-1 ring-red-200">
          {t(answer.error)}
        </p>
      ) : null}
      {reports.length === 0 ? (
        <p className="text-stone-700">{t(status === "open" ? "reports.noneOpen" : "reports.noneClosed")}</p>
      ) : (
        <ol className="space-y-4">
          {reports.map((report) => (
            <li key={report.id} className="card space-y-3">
              <h2 className="sr-only">
                {t("reports.heading", {
                  subject: t(`reports.subject.${report.subjectType}`),
                  name: report.reported.name,
                })}
              </h2>
              <ReportSummary report={report} />
              {report.status === "open" ? (
                <ReasonForm
                  id={`report-${report.id}`}
                  hidden={{ reportId: report.id }}
                  error={answer?.reportId === report.id ? answer.error : null}
                  actions={[
                    { intent: "dismiss", label: t("reports.actions.dismiss") },
                    ...(report.subjectType === "message" || report.subjectType === "review"
                      ? [{ intent: "hide", label: t("reports.actions.hide") }]
                      : []),
                    { intent: "warn", label: t("reports.actions.warn") },
                    ...(report.reported.suspended
                      ? []
                      : [{ intent: "suspend", label: t("reports.actions.suspend"), danger: true }]),
                  ]}
                />
              ) : (
                <p className="text-sm text-stone-700">
                  {t("reports.closedAt", { when: format.when(report.resolvedAt) })}
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
