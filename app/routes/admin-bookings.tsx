import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { partlyRefunded } from "~/features/bookings";
import { Pager, pageOf } from "~/features/disputes";
import { findBookings } from "~/features/disputes/index.server";
import { dateTimeFormat } from "~/platform/format";
import { languageOf } from "~/platform/i18n.server";
import { formatMoney } from "~/platform/money";
import { requireAdmin } from "~/platform/operator.server";

export const handle = { i18n: ["admin", "disputes", "bookings"], title: "disputes:search.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const operator = await requireAdmin(request);
  const url = new URL(request.url);
  // Bounded, so a huge query string costs nothing.
  const query = (url.searchParams.get("q") ?? "").slice(0, 200);
  const day = (url.searchParams.get("day") ?? "").slice(0, 10);
  const page = pageOf(url.searchParams.get("page"));
  const language = await languageOf(request);
  const when = dateTimeFormat(language, { dateStyle: "medium", timeStyle: "short", timeZone: operator.time_zone });
  const found = await findBookings({ query, day, page });
  return {
    query,
    day,
    page,
    hasMore: found.hasMore,
    bookings: found.bookings.map((row) => ({
      id: row.id,
      petName: row.pet_name,
      ownerName: row.owner_name,
      sitterName: row.sitter_name,
      status: row.status,
      paymentStatus: row.payment_status,
      total: formatMoney(row.money.priceCents, language),
      refunded: partlyRefunded(row.money) ? formatMoney(row.money.refundedCents, language) : null,
      startAt: row.start_at,
      start: when.format(new Date(row.start_at)),
    })),
  };
}

export default function AdminBookings() {
  const { t } = useTranslation("disputes");
  const { query, day, page, hasMore, bookings } = useLoaderData<typeof loader>();
  const hrefOf = (next: number) =>
    `/admin/bookings?${new URLSearchParams({ q: query, day, page: String(next) }).toString()}`;
  return (
    <section aria-labelledby="bookings-title" className="space-y-4">
      <h1 id="bookings-title" className="text-2xl font-bold">
        {t("search.title")}
      </h1>
      <Form method="get" role="search" className="card grid gap-3 sm:grid-cols-[1fr_auto_auto] sm:items-end">
        <div className="space-y-1.5">
          <label htmlFor="booking-query" className="block text-sm font-semibold">
            {t("search.query")}
          </label>
          <input id="booking-query" name="q" type="search" defaultValue={query} maxLength={200} className="input" />
        </div>
        <div className="space-y-1.5">
          <label htmlFor="booking-day" className="block text-sm font-semibold">
            {t("search.day")}
          </label>
          <input id="booking-day" name="day" type="date" defaultValue={day} className="input" />
        </div>
        <button type="submit" className="btn btn-primary">
          {t("search.submit")}
        </button>
      </Form>
      {bookings.length === 0 ? (
        <p className="text-stone-700">{t("search.empty")}</p>
      ) : (
        <ul className="space-y-2">
          {bookings.map((booking) => (
            <li key={booking.id} className="card space-y-1">
              <Link to={`/admin/bookings/${booking.id}`} className="font-semibold text-brand-800 underline">
                {t("queue.item", { owner: booking.ownerName, sitter: booking.sitterName, pet: booking.petName })}
              </Link>
              <p className="text-sm text-stone-700">
                <time dateTime={booking.startAt}>{booking.start}</time> · {t(`bookings:status.${booking.status}`)} ·{" "}
                {t(`bookings:paymentStatus.${booking.paymentStatus}`)} · {booking.total}
                {booking.refunded ? ` · ${t("card.refunded", { amount: booking.refunded })}` : null}
              </p>
              <p className="font-mono text-xs break-all text-stone-600">{booking.id}</p>
            </li>
          ))}
        </ul>
      )}
      <Pager page={page} hasMore={hasMore} hrefOf={hrefOf} />
    </section>
  );
}
