import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ConsoleSection, useConsoleFormat } from "./console-ui";

type TaskName = "hold" | "capture" | "void" | "refund";

export interface SystemPanelData {
  emailsWaiting: number;
  emailsRetrying: number;
  emailsFailed: number;
  paymentTasks: { waiting: number; retrying: number; failed: number };
  disputesOpen: number;
  streamsOpen: number;
  backup: { configured: boolean; lastSuccessAt: string | null; lastFailureAt: string | null; stale: boolean };
  failingTasks: { bookingId: string; task: TaskName; attempts: number; failed: boolean; error: string | null }[];
}

function Figure({ label, value, alarm = false }: { label: string; value: string; alarm?: boolean }) {
  return (
    <div className={`rounded-lg border p-3 ${alarm ? "border-red-300 bg-red-50" : "border-stone-200"}`}>
      <dt className="text-sm text-stone-700">{label}</dt>
      <dd className={`text-2xl font-semibold ${alarm ? "text-red-800" : ""}`}>{value}</dd>
    </div>
  );
}

/** What an operator without Grafana needs to see trouble: the same figures as the alerts. */
export function SystemPanel({ system }: { system: SystemPanelData }) {
  const { t } = useTranslation("admin");
  const { count, when } = useConsoleFormat();
  const { backup } = system;
  return (
    <ConsoleSection id="system" title={t("system.title")}>
      <p className="text-sm text-stone-700">{t("system.subtitle")}</p>
      <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Figure
          label={t("system.paymentTasksFailed")}
          value={count(system.paymentTasks.failed)}
          alarm={system.paymentTasks.failed > 0}
        />
        <Figure label={t("system.paymentTasksRetrying")} value={count(system.paymentTasks.retrying)} />
        <Figure label={t("system.paymentTasksWaiting")} value={count(system.paymentTasks.waiting)} />
        <Figure label={t("system.emailsFailed")} value={count(system.emailsFailed)} alarm={system.emailsFailed > 0} />
        <Figure label={t("system.emailsRetrying")} value={count(system.emailsRetrying)} />
        <Figure label={t("system.emailsWaiting")} value={count(system.emailsWaiting)} />
        <Figure label={t("system.streamsOpen")} value={count(system.streamsOpen)} />
        <Figure label={t("system.disputesOpen")} value={count(system.disputesOpen)} />
        <Figure
          label={t("system.lastBackup")}
          value={
            !backup.configured
              ? t("system.backupNotConfigured")
              : backup.lastSuccessAt
                ? when(backup.lastSuccessAt)
                : t("system.backupNone")
          }
          alarm={backup.stale}
        />
      </dl>
      {backup.configured && backup.lastFailureAt ? (
        <p className={`text-sm ${backup.stale ? "font-semibold text-red-800" : "text-stone-700"}`}>
          {t("system.backupFailedAt", { when: when(backup.lastFailureAt) })}
        </p>
      ) : null}
      <h3 className="font-semibold">{t("system.failingTitle")}</h3>
      {system.failingTasks.length === 0 ? (
        <p className="text-sm text-stone-700">{t("system.noneFailing")}</p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead>
            <tr>
              <th scope="col">{t("system.booking")}</th>
              <th scope="col">{t("system.task")}</th>
              <th scope="col">{t("system.attempts")}</th>
              <th scope="col">{t("system.lastError")}</th>
            </tr>
          </thead>
          <tbody>
            {system.failingTasks.map((task) => (
              <tr key={task.bookingId}>
                <td>
                  <Link to={`/admin/bookings/${task.bookingId}`} className="font-semibold text-brand-800 underline">
                    {task.bookingId.slice(0, 8)}
                  </Link>
                </td>
                <td>{t(`system.tasks.${task.task}`)}</td>
                <td>
                  {count(task.attempts)}
                  {task.failed ? <span className="ml-2 font-semibold text-red-800">{t("system.givenUp")}</span> : null}
                </td>
                <td>{task.error ? <code>{task.error}</code> : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </ConsoleSection>
  );
}
