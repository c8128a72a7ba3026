import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { BookingCard, bookingCardText, BOOKING_TABS } from "~/features/bookings";
import { listBookings, type BookingTab } from "~/features/bookings/index.server";
import { MeetGreetList } from "~/features/meet-greets";
import { meetGreetsOf } from "~/features/meet-greets/index.server";
import { dateTimeFormat } from "~/platform/format";
import { languageOf } from "~/platform/i18n.server";
import { requireUser } from "~/platform/session.server";
import { PageHeader } from "~/platform/ui/page-header";
import { TabLinks } from "~/platform/ui/tab-links";

export const handle = { i18n: ["bookings", "disputes", "meetGreets"], title: "bookings:list.title" };

const TABS = Object.keys(BOOKING_TABS) as BookingTab[];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const asked = new URL(request.url).searchParams.get("tab");
  const tab = TABS.find((item) => item === asked) ?? "all";
  const [bookings, meetGreets, language] = await Promise.all([
    listBookings(user.id, tab),
    tab === "all" ? meetGreetsOf(user.id) : [],
    languageOf(request),
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
  };
}

export default function Bookings() {
  const { t } = useTranslation("bookings");
  const { tab, bookings, meetGreets } = useLoaderData<typeof loader>();
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
