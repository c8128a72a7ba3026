import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { PayoutStatus } from "~/features/payments/index.server";
import { dateTimeFormat } from "~/platform/format";
import { formatMoney } from "~/platform/money";
import { LanguageSwitcher } from "~/platform/ui/language-switcher";
import { LEGAL_PAGES } from "~/platform/ui/legal-links";
import { PageHeader } from "~/platform/ui/page-header";
import { Initials } from "./profile-view";

type EarningsSummary = {
  heldCents: number;
  releasedCents: number;
  feeCents: number;
  bookings: {
    id: string;
    ownerName: string;
    petName: string;
    startAt: string;
    status: string;
    earningsCents: number;
  }[];
};

export type ProfilePageData = {
  user: {
    name: string;
    email: string;
    phone: string;
    city: string;
    timeZone: string;
    role: string;
    actingRole: "owner" | "sitter";
    isSitter: boolean;
    isOwner: boolean;
    termsAcceptedAt: string | null;
  };
  mainPhoto: string | null;
  rating: { average: number | null; count: number };
  pets: { id: string; name: string; petType: string; photo: string | null }[];
  history: {
    id: string;
    as: "owner" | "sitter";
    other: { name: string };
    petName: string;
    startAt: string;
    status: string;
    money: { priceCents: number; sitterKeepsCents: number };
  }[];
  reviews: { id: string; rating: number; comment: string; removed: boolean; reviewerName: string; createdAt: string }[];
  earnings: EarningsSummary | null;
  payouts: PayoutStatus | null;
};

export function ProfilePage({ user, mainPhoto, rating, pets, history, reviews, earnings, payouts }: ProfilePageData) {
  const { t, i18n } = useTranslation("profile");
  return (
    <>
      <PageHeader title={t("page.title")} />
      <div className="space-y-4 px-4 pb-6">
        <section className="card flex items-center gap-4" aria-labelledby="me">
          {mainPhoto ? (
            <img src={mainPhoto} alt="" className="size-20 rounded-2xl object-cover" />
          ) : (
            <Initials name={user.name} className="size-20 text-2xl" />
          )}
          <div className="min-w-0 flex-1">
            <h2 id="me" className="truncate text-xl font-bold">
              {user.name}
            </h2>
            <p className="text-stone-700">{user.city}</p>
            <p className="text-sm text-stone-700">
              {rating.count > 0
                ? t("rating.summary", { average: rating.average?.toFixed(1), count: rating.count })
                : t("rating.none")}
            </p>
          </div>
        </section>
        <div className="grid grid-cols-2 gap-2">
          <Link to="/profile/edit" className="btn btn-primary">
            {t("page.edit")}
          </Link>
          <Link to="/profile/public" className="btn btn-secondary">
            {t("page.viewPublic")}
          </Link>
        </div>

        <RoleToggle role={user.role} actingRole={user.actingRole} />

        {user.isOwner ? (
          <Section
            title={t("page.myPets")}
            action={
              <Link to="/pet-profile-setup" className="link">
                {t("page.addPet")}
              </Link>
            }
          >
            {pets.length === 0 ? (
              <p className="text-stone-700">{t("page.noPets")}</p>
            ) : (
              <ul className="divide-y divide-stone-200">
                {pets.map((pet) => (
                  <li key={pet.id} className="flex items-center gap-3 py-2">
                    {pet.photo ? (
                      <img src={pet.photo} alt="" className="size-12 rounded-xl object-cover" />
                    ) : (
                      <Initials name={pet.name} className="size-12 text-base" />
                    )}
                    <span className="flex-1">
                      <span className="block font-semibold">{pet.name}</span>
                      <span className="block text-sm text-stone-700">{t(`pet.types.${pet.petType}`)}</span>
                    </span>
                    <Link to={`/pet/${pet.id}/care-plan`} className="link">
                      {t("care:plan.short")}
                      <span className="sr-only"> {pet.name}</span>
                    </Link>
                    <Link to={`/pet/${pet.id}/edit`} className="link">
                      {t("page.editPet")}
                      <span className="sr-only"> {pet.name}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </Section>
        ) : null}

        {user.isSitter ? (
          <Section title={t("page.myAvailability")}>
            <Link to="/availability" className="link">
              {t("page.manageAvailability")}
            </Link>
          </Section>
        ) : null}

        {payouts?.provider === "stripe" ? (
          <Section title={t("payouts.title")}>
            {payouts.ready ? (
              <p>{t("payouts.ready")}</p>
            ) : (
              <Form method="post" className="space-y-2">
                <p className="text-stone-700">{t(payouts.started ? "payouts.pending" : "payouts.intro")}</p>
                <button type="submit" name="intent" value="payouts" className="btn btn-primary w-full">
                  {t(payouts.started ? "payouts.continue" : "payouts.start")}
                </button>
              </Form>
            )}
          </Section>
        ) : null}

        <Section title={t("page.personalInfo")}>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="font-semibold">{t("page.email")}</dt>
            <dd className="break-all">{user.email}</dd>
            <dt className="font-semibold">{t("page.phone")}</dt>
            <dd>{user.phone}</dd>
            <dt className="font-semibold">{t("page.timeZone")}</dt>
            <dd>{user.timeZone.replaceAll("_", " ")}</dd>
            <dt className="font-semibold">{t("legal:profile.termsAccepted")}</dt>
            <dd>
              {user.termsAcceptedAt
                ? formatDate(user.termsAcceptedAt, i18n.language, user.timeZone)
                : t("legal:profile.notRecorded")}
            </dd>
          </dl>
          <div className="mt-3 flex flex-wrap items-center justify-between gap-2">
            <Link to="/reset-password" className="link">
              {t("edit.changePassword")}
            </Link>
            <LanguageSwitcher />
          </div>
        </Section>

        <Section title={t("page.links")}>
          <ul className="space-y-2">
            <li>
              <Link to="/bookings" className="link">
                {t("page.myBookings")}
              </Link>
            </li>
            <li>
              <Link to="/notifications" className="link">
                {t("page.notifications")}
              </Link>
            </li>
            <li>
              <Link to="/subscription?tab=mine#payment-methods" className="link">
                {t("page.paymentMethods")}
              </Link>
            </li>
            <li>
              <Link to="/profile/privacy" className="link">
                {t("safety:privacy.link")}
              </Link>
            </li>
            <li>
              <Link to="/settings" className="link">
                {t("settings:link")}
              </Link>
            </li>
          </ul>
        </Section>

        <section className="card space-y-2" aria-labelledby="legal-heading">
          <h2 id="legal-heading" className="text-lg font-semibold">
            {t("legal:profile.heading")}
          </h2>
          <ul className="space-y-2">
            {LEGAL_PAGES.map((page) => (
              <li key={page}>
                <Link to={`/${page}`} className="link">
                  {t(`legal:titles.${page}`)}
                </Link>
              </li>
            ))}
          </ul>
        </section>

        {earnings ? <Earnings earnings={earnings} timeZone={user.timeZone} /> : null}

        <Section
          title={t("page.bookingHistory")}
          action={
            <Link to="/bookings" className="link">
              {t("page.allBookings")}
            </Link>
          }
        >
          {history.length === 0 ? (
            <p className="text-stone-700">{t("page.noBookings")}</p>
          ) : (
            <ul className="divide-y divide-stone-200">
              {history.map((booking) => (
                <li key={booking.id} className="flex items-center justify-between gap-3 py-2 text-sm">
                  <span>
                    <span className="block font-semibold">
                      {booking.as === "owner" ? booking.other.name : `${booking.petName} (${booking.other.name})`}
                    </span>
                    <span className="block text-stone-700">
                      {formatDate(booking.startAt, i18n.language, user.timeZone)}
                    </span>
                  </span>
                  <span className="text-right">
                    <span className="block">{t(`bookings:status.${booking.status}`)}</span>
                    <span className="block text-stone-700">
                      {formatMoney(
                        booking.as === "owner" ? booking.money.priceCents : booking.money.sitterKeepsCents,
                        i18n.language,
                      )}
                    </span>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Section>
        <Section title={t("page.reviewsReceived")}>
          {reviews.length === 0 ? (
            <p className="text-stone-700">{t("page.noReviews")}</p>
          ) : (
            <ul className="space-y-3">
              {reviews.map((review) => (
                <li key={review.id} className="text-sm">
                  <p className="font-semibold">
                    <span aria-hidden>
                      {"★".repeat(review.rating)}
                      {"☆".repeat(5 - review.rating)}
                    </span>
                    <span className="sr-only">{t("page.stars", { stars: review.rating })}</span> · {review.reviewerName}
                  </p>
                  {review.removed ? (
                    <p className="italic text-stone-700">{t("safety:removed")}</p>
                  ) : review.comment ? (
                    <p className="text-stone-800">{review.comment}</p>
                  ) : null}
                  <p className="text-stone-600">{formatDate(review.createdAt, i18n.language, user.timeZone)}</p>
                  {review.removed ? null : (
                    <Link
                      to={`/report/review/${review.id}?back=%2Fprofile`}
                      className="text-xs font-semibold text-stone-700 underline"
                    >
                      {t("safety:report.link.review")}
                    </Link>
                  )}
                </li>
              ))}
            </ul>
          )}
        </Section>

        <Form method="post" action="/logout">
          <button type="submit" className="btn btn-secondary w-full">
            {t("common:nav.logout")}
          </button>
        </Form>
      </div>
    </>
  );
}

/** In the member's own zone: the server and the browser then print the same day. */
const formatDate = (iso: string, language: string, timeZone: string) =>
  dateTimeFormat(language, { dateStyle: "medium", timeZone }).format(new Date(iso));

function Earnings({ earnings, timeZone }: { earnings: EarningsSummary; timeZone: string }) {
  const { t, i18n } = useTranslation("bookings");
  const money = (cents: number) => formatMoney(cents, i18n.language);
  return (
    <Section title={t("history.earnings")}>
      <dl className="grid grid-cols-3 gap-2 text-center">
        {(
          [
            ["held", earnings.heldCents],
            ["released", earnings.releasedCents],
            ["fee", earnings.feeCents],
          ] as const
        ).map(([key, cents]) => (
          <div key={key} className="rounded-xl bg-stone-50 p-2">
            <dt className="text-xs text-stone-700">{t(`history.${key}`)}</dt>
            <dd className="font-bold">{money(cents)}</dd>
          </div>
        ))}
      </dl>
      {earnings.bookings.length === 0 ? (
        <p className="text-stone-700">{t("history.none")}</p>
      ) : (
        <ul className="divide-y divide-stone-200 text-sm">
          {earnings.bookings.map((booking) => (
            <li key={booking.id} className="flex justify-between gap-3 py-2">
              <span>
                {booking.petName} ({booking.ownerName}) · {formatDate(booking.startAt, i18n.language, timeZone)}
              </span>
              <span className="text-right">
                {money(booking.earningsCents)} · {t(`paymentStatus.${booking.status}`)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function Section({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  const id = `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
  return (
    <section className="card space-y-2" aria-labelledby={id}>
      <div className="flex items-center justify-between gap-2">
        <h2 id={id} className="text-lg font-semibold">
          {title}
        </h2>
        {action}
      </div>
      {children}
    </section>
  );
}

function RoleToggle({ role, actingRole }: { role: string; actingRole: "owner" | "sitter" }) {
  const { t } = useTranslation("profile");
  if (role === "both") {
    return (
      <Form method="post" className="card space-y-2">
        <p className="font-semibold">{t("role.actingAs", { role: t(`role.${actingRole}`) })}</p>
        <button
          type="submit"
          name="actingRole"
          value={actingRole === "owner" ? "sitter" : "owner"}
          className="btn btn-secondary w-full"
        >
          {t(actingRole === "owner" ? "role.switchToSitter" : "role.switchToOwner")}
        </button>
      </Form>
    );
  }
  return (
    <div className="card space-y-2">
      <p className="font-semibold">{t("role.actingAs", { role: t(`role.${role}`) })}</p>
      <Link to={role === "owner" ? "/sitter-profile-setup" : "/pet-profile-setup"} className="btn btn-secondary w-full">
        {t(role === "owner" ? "role.becomeSitter" : "role.becomeOwner")}
      </Link>
    </div>
  );
}
