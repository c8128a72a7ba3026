import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Pager, pageOf } from "~/features/disputes";
import { disputeQueue, type DisputeStatusFilter } from "~/features/disputes/index.server";
import { dateTimeFormat } from "~/platform/format";
import { languageOf } from "~/platform/i18n.server";
import { formatMoney } from "~/platform/money";
import { requireAdmin } from "~/platform/operator.server";

export const handle = { i18n: ["admin", "disputes", "bookings"], title: "disputes:queue.title" };

const FILTERS = ["open", "resolved"] as const satisfies readonly DisputeStatusFilter[];

export async function loader({ request }: LoaderFunctionArgs) {
  const operator = await requireAdmin(request);
  const url = new URL(request.url);
  const status: DisputeStatusFilter = url.searchParams.get("status") === "resolved" ? "resolved" : "open";
  const page = pageOf(url.searchParams.get("page"));
  const language = await languageOf(request);
  const when = dateTimeFormat(language, { dateStyle: "medium", timeStyle: "short", timeZone: operator.time_zone });
  const queue = await disputeQueue(status, page);
  return {
    status,
    page,
    hasMore: queue.hasMore,
    disputes: queue.disputes.map((row) => ({
      id: row.id,
      reason: row.reason,
      outcome: row.outcome,
      petName: row.pet_name,
      ownerName: row.owner_name,
      sitterName: row.sitter_name,
      total: formatMoney(row.money.priceCents, language),
      refund: formatMoney(row.refund_cents ?? 0, language),
      openedAt: row.created_at,
      opened: when.format(new Date(row.created_at)),
    })),
  };
}

export default function AdminDisputes() {
  const { t } = useTranslation("disputes");
  const { status, page, hasMore, disputes } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="disputes-title" className="space-y-4">
      <h1 id="disputes-title" className="text-2xl font-bold">
        {t("queue.title")}
      </h1>
      <nav aria-label={t("queue.filter")} className="flex gap-2">
        {FILTERS.map((tab) => (
          <Link
            key={tab}
            to={`/admin/disputes?status=${tab}`}
            aria-current={tab === status ? "page" : undefined}
            className={`btn ${tab === status ? "btn-primary" : "btn-secondary"}`}
          >
            {t(`queue.${tab}`)}
          </Link>
        ))}
      </nav>
      {disputes.length === 0 ? (
        <p className="text-stone-700">{t(status === "open" ? "queue.emptyOpen" : "queue.emptyResolved")}</p>
      ) : (
        <ul className="space-y-2">
          {disputes.map((dispute) => (
            <li key={dispute.id} className="card space-y-1">
              <Link to={`/admin/disputes/${dispute.id}`} className="font-semibold text-brand-800 underline">
                {t("queue.item", { owner: dispute.ownerName, sitter: dispute.sitterName, pet: dispute.petName })}
              </Link>
              <p className="text-sm text-stone-700">
                {t(`reasons.${dispute.reason}`)} · {dispute.total} ·{" "}
                <time dateTime={dispute.openedAt}>{dispute.opened}</time>
                {dispute.outcome ? ` · ${t(`outcome.${dispute.outcome}`, { amount: dispute.refund })}` : null}
              </p>
            </li>
          ))}
        </ul>
      )}
      <Pager page={page} hasMore={hasMore} hrefOf={(next) => `/admin/disputes?status=${status}&page=${next}`} />
    </section>
  );
}
