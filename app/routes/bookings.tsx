import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { BookingCard, bookingCardText, BOOKING_TABS } from "~/features/bookings";
import { listBookings, type BookingTab } from "~/features/bookings/index.server";
import { MeetGreetList } from "~/features/meet-greets";
import { meetGreetsOf } from "~/features/meet-greets/index.server";
import { SeriesList } from "~/features/series";
import { seriesOf } from "~/features/series/index.server";
import { translatorFor } from "~/platform/i18n.server";
import { dateTimeFormat } from "~/platform/format";
import { languageOf } from "~/platform/i18n.server";
import { requireUser } from "~/platform/session.server";
import { PageHeader } from "~/platform/ui/page-header";
import { TabLinks } from "~/platform/ui/tab-links";

export const handle = { i18n: ["bookings", "disputes", "meetGreets", "series"], title: "bookings:list.title" };

const TABS = Object.keys(BOOKING_TABS) as BookingTab[];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const asked = new URL(request.url).searchParams.get("tab");
  const tab = TABS.find((item) => item === asked) ?? "all";
  const language = await languageOf(request);
  const [bookings, meetGreets, series, t] = await Promise.all([
    listBookings(user.id, tab),
    tab === "all" ? meetGreetsOf(user.id) : [],
    tab === "all" ? seriesOf(user.id, language) : [],
    translatorFor(language, "series"),
  ]);
  const when = dateTimeFormat(language, { dateStyle: "medium", timeStyle: "short", timeZone: user.time_zone });
  return {
    tab,
    bookings: bookings.map((booking) => bookingCardText(booking, language)),
    meetGreets: meetGreets.map((meeting) => ({
      id: meeting.id,
      otherName: meeting.other.name,
      when: when.format(new Date(meeting.startAt)),
      status: meeting.status,
      place: meeting.place,
      awaitsMe: meeting.awaitsMe,
    })),
    series: series.map((item) => ({
      id: item.id,
      as: item.as,
      status: item.status,
      awaitsMe: item.can.accept || item.can.acceptChange,
      summary: t(item.as === "owner" ? "summary" : "summaryRegular", {
        days: item.days,
        time: item.startTime,
        name: item.other.name,
        interpolation: { escapeValue: false },
      }),
      next: item.next.map(({ day, label, state }) => ({ day, label, state })),
    })),
  };
}

export default function Bookings() {
  const { t } = useTranslation("bookings");
  const { tab, bookings, meetGreets, series } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("list.title")} backTo="/dashboard" />
      <div className="space-y-4 px-4 pb-6">
        <TabLinks
          label={t("list.filter")}
          tabs={TABS}
          current={tab}
          hrefOf={(item) => (item === "all" ? "/bookings" : `/bookings?tab=${item}`)}
          labelOf={(item) => t(`tabs.${item}`)}
          className="text-sm"
        />
        <SeriesList series={series} />
        <MeetGreetList meetGreets={meetGreets} />
        {bookings.length === 0 ? (
          <p className="card text-center text-stone-700">{t("list.empty")}</p>
        ) : (
          bookings.map((booking) => <BookingCard key={booking.id} booking={booking} />)
        )}
      </div>
    </>
  );
}
