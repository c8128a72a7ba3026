import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/** Amounts already formatted on the server for the operator's language. */
export interface MoneyText {
  total: string;
  paid: string;
  refunded: string;
  sitter: string;
  fee: string;
}

/** Where a booking's money stands: what was held, taken, given back, and how what was kept splits. */
export function MoneyTable({
  money,
  status,
  pending,
  provider,
}: {
  money: MoneyText;
  status: string;
  pending: boolean;
  provider?: string;
}) {
  const { t } = useTranslation("disputes");
  const rows: [string, string][] = [
    [
      t("money.status"),
      `${t(`bookings:paymentStatus.${status}`)}${pending ? ` · ${t("bookings:paymentStatus.pending")}` : ""}`,
    ],
    // The provider is for operators; the booking's two people see the same amounts without it.
    ...(provider === undefined ? [] : ([[t("money.provider"), provider]] as [string, string][])),
    [t("money.total"), money.total],
    [t("money.paid"), money.paid],
    [t("money.refunded"), money.refunded],
    [t("money.sitter"), money.sitter],
    [t("money.fee"), money.fee],
  ];
  return (
    <table className="w-full text-sm">
      <caption className="sr-only">{t("money.title")}</caption>
      <tbody>
        {rows.map(([label, value]) => (
          <tr key={label} className="border-b border-stone-200">
            <th scope="row" className="py-1.5 pr-3 text-left font-medium text-stone-700">
              {label}
            </th>
            <td className="py-1.5 text-right font-semibold">{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Previous / next links that keep the other query parameters (plain links: no JavaScript needed). */
export function Pager({ page, hasMore, hrefOf }: { page: number; hasMore: boolean; hrefOf: (page: number) => string }) {
  const { t } = useTranslation("disputes");
  if (page <= 1 && !hasMore) return null;
  return (
    <nav aria-label={t("paging.label")} className="flex justify-between gap-2">
      {page > 1 ? (
        <Link to={hrefOf(page - 1)} className="btn btn-secondary">
          {t("paging.newer")}
        </Link>
      ) : (
        <span />
      )}
      {hasMore ? (
        <Link to={hrefOf(page + 1)} className="btn btn-secondary">
          {t("paging.older")}
        </Link>
      ) : null}
    </nav>
  );
}

/** A page number from the query string: 1 for anything that is not a small whole number. */
export function pageOf(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1;
}
