import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Initials } from "~/features/profiles";
import { formatMoney } from "~/platform/money";
import { numberFormat } from "~/platform/format";
import type { DeckCard, DeckResult } from "./deck.server";

export const cardKey = (card: Pick<DeckCard, "userId" | "petId">) => `${card.userId}:${card.petId ?? ""}`;

function formatDistance(km: number, language: string): string {
  const format = numberFormat(language, { style: "unit", unit: "kilometer", maximumFractionDigits: 0 });
  return km < 1 ? `< ${format.format(1)}` : format.format(km);
}

export interface DeckCardText {
  price: string | null;
  /** A sitter's other services' prices, in the order of card.services. */
  servicePrices: string[];
  distance: string | null;
}

export type ShownCard = DeckCard & { text: DeckCardText };
export type ShownDeck = { status: "cards"; cards: ShownCard[] } | Exclude<DeckResult, { status: "cards" }>;

/**
 * The photo people look at first, asked for from the page's head at high priority: the browser fetches it
 * before the page's scripts (which it finds at the end of the body), so on a slow network the deck shows
 * before it comes alive. A route's `meta` returns it; the same address as the top card's `<img>`.
 */
export function topPhotoPreload(deck: ShownDeck | undefined, photoIndex: number) {
  const photos = deck?.status === "cards" ? (deck.cards[0]?.photos ?? []) : [];
  const photo = photos[Math.min(Math.max(photoIndex, 0), photos.length - 1)];
  return photo ? [{ tagName: "link", rel: "preload", as: "image", href: photo.cardUrl, fetchpriority: "high" }] : [];
}

export function deckCardText(deck: DeckResult, language: string): ShownDeck {
  if (deck.status !== "cards") return deck;
  return {
    status: "cards",
    cards: deck.cards.map((card) => ({
      ...card,
      text: {
        price:
          card.kind === "sitter" && card.hourlyRateCents !== null ? formatMoney(card.hourlyRateCents, language) : null,
        servicePrices:
          card.kind === "sitter" ? card.services.map((offered) => formatMoney(offered.priceCents, language)) : [],
        distance: card.distanceKm === null ? null : formatDistance(card.distanceKm, language),
      },
    })),
  };
}

export function DeckCardView({
  card,
  photoIndex,
  photoHref,
  onPhoto,
  headingId,
  withDetails = true,
  priority,
  children,
}: {
  card: ShownCard;
  photoIndex: number;
  photoHref?: (index: number) => string;
  onPhoto?: (index: number) => void;
  headingId?: string;
  withDetails?: boolean;
  /** How urgently the browser fetches the photo: "high" for the card people look at first. */
  priority?: "high" | "low";
  children?: ReactNode;
}) {
  const { t } = useTranslation(["discovery", "profile"]);
  const count = card.photos.length;
  const index = count ? Math.min(Math.max(photoIndex, 0), count - 1) : 0;
  const photo = card.photos[index];
  const photoLink = (to: number, label: string, side: "left" | "right") =>
    photoHref ? (
      <Link
        to={photoHref(to)}
        replace
        preventScrollReset
        onClick={(event) => {
          if (!onPhoto) return;
          event.preventDefault();
          onPhoto(to);
        }}
        className={`absolute top-1/2 ${side === "left" ? "left-2" : "right-2"} flex size-11 -translate-y-1/2 items-center justify-center rounded-full bg-black/45 text-white hover:bg-black/60`}
      >
        <svg aria-hidden viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2.5">
          <path d={side === "left" ? "M15 18l-6-6 6-6" : "M9 6l6 6-6 6"} strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <span className="sr-only">{label}</span>
      </Link>
    ) : null;

  return (
    <article
      aria-labelledby={headingId}
      className="overflow-hidden rounded-3xl bg-white shadow-lg ring-1 ring-stone-200"
    >
      <div className="relative aspect-[4/5] max-h-[max(6rem,calc(100dvh_-_var(--deck-above,11rem)_-_15rem))] w-full bg-stone-200">
        {photo ? (
          <img
            src={photo.cardUrl}
            alt={t("deck.photoAlt", { name: card.name, number: index + 1, total: count })}
            width={photo.width}
            height={photo.height}
            draggable={false}
            fetchpriority={priority}
            className="size-full object-cover select-none"
          />
        ) : (
          <Initials name={card.name} className="size-full rounded-none text-7xl" />
        )}
        {count > 1 ? (
          <>
            <div aria-hidden className="absolute inset-x-3 top-3 flex gap-1">
              {card.photos.map((item, position) => (
                <span
                  key={item.id}
                  className={`h-1 flex-1 rounded-full ${position === index ? "bg-white" : "bg-white/50"}`}
                />
              ))}
            </div>
            {index > 0 ? photoLink(index - 1, t("deck.previousPhoto"), "left") : null}
            {index < count - 1 ? photoLink(index + 1, t("deck.nextPhoto"), "right") : null}
          </>
        ) : null}
        {card.kind === "sitter" ? (
          // Over the photo, so it costs the card no height: the buttons stay on a small screen.
          <p className="absolute bottom-2 left-2 max-w-[calc(100%-1rem)] rounded-xl bg-black/70 px-2.5 py-1 text-sm font-semibold text-white">
            {[
              card.yearsExperience !== null
                ? t("profile:sitter.yearsExperience", { count: card.yearsExperience })
                : null,
              t("profile:sitter.completedBookings", { count: card.completedBookings }),
            ]
              .filter(Boolean)
              .join(" · ")}
          </p>
        ) : null}
        {children}
      </div>
      <div className="space-y-1 px-4 py-2">
        <div className="flex items-baseline justify-between gap-3">
          <h2 id={headingId} className="truncate text-2xl font-bold">
            {card.name}
          </h2>
          {card.kind === "sitter" && card.text.price !== null ? (
            <p className="shrink-0 text-lg font-semibold text-brand-800">
              {t("deck.perHour", { price: card.text.price })}
            </p>
          ) : null}
        </div>
        <p className="flex flex-wrap gap-x-3 text-stone-700">
          {card.kind === "pet" ? <span>{t("deck.withOwner", { name: card.ownerName })}</span> : null}
          <span>{card.city}</span>
          {card.text.distance !== null ? <span>{t("deck.away", { distance: card.text.distance })}</span> : null}
        </p>
        {withDetails ? <DeckCardDetails card={card} /> : null}
      </div>
    </article>
  );
}

export function DeckCardDetails({ card }: { card: ShownCard }) {
  const { t } = useTranslation(["discovery", "profile"]);
  return (
    <div className="space-y-2">
      {card.kind === "sitter" ? (
        <>
          <p className="text-stone-800">
            {card.rating !== null && card.reviewCount > 0
              ? t("deck.rating", { average: card.rating.toFixed(1), count: card.reviewCount })
              : t("deck.newSitter")}
          </p>
          {card.services.length > 0 ? (
            <p className="text-sm text-stone-800">
              {card.services
                .map((offered, index) =>
                  [
                    t(`profile:services.${offered.service}`),
                    t("profile:services.from", {
                      price: card.text.servicePrices[index],
                      unit: t(`profile:services.unit.${offered.unit}`),
                    }),
                  ].join(" "),
                )
                .join(" · ")}
            </p>
          ) : null}
          {card.bio ? <p className="line-clamp-2 text-stone-800">{card.bio}</p> : null}
          <Chips items={card.experience.slice(0, 4).map((id) => t(`profile:experience.${id}`))} />
        </>
      ) : (
        <>
          <p className="text-stone-800">
            {[
              t(`profile:pet.types.${card.petType}`),
              card.breed ? t(`profile:breeds.${card.breed}`, { defaultValue: card.breed }) : null,
              card.age,
            ]
              .filter(Boolean)
              .join(" · ")}
          </p>
          <p className="text-stone-800">{t("deck.energy", { level: t(`profile:energy.${card.energyLevel}`) })}</p>
          <Chips items={card.temperament.slice(0, 4).map((id) => t(`profile:temperaments.${id}`))} />
        </>
      )}
    </div>
  );
}

function Chips({ items }: { items: string[] }) {
  if (items.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-1.5">
      {items.map((item) => (
        <li
          key={item}
          className="rounded-full bg-brand-50 px-2.5 py-1 text-sm font-medium text-brand-800 ring-1 ring-brand-100"
        >
          {item}
        </li>
      ))}
    </ul>
  );
}
