import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatMoney } from "~/platform/money";
import type { PublicProfile } from "./profiles.server";

export type ShownProfile = PublicProfile & {
  text: { rate: string | null; prices: string[]; extraPet: string };
};

export function profileText(profile: PublicProfile, language: string): ShownProfile {
  return {
    ...profile,
    text: {
      rate: profile.hourlyRateCents === null ? null : formatMoney(profile.hourlyRateCents, language),
      prices: profile.services.map((offered) => formatMoney(offered.priceCents, language)),
      extraPet: formatMoney(profile.extraPetCents, language),
    },
  };
}

/** Each service the sitter offers, "from €X per night", with the extra-pet price and the most pets. */
function ServicesOffered({ profile }: { profile: ShownProfile }) {
  const { t } = useTranslation("profile");
  return (
    <InfoSection id="services" title={t("services.title")}>
      <ul className="space-y-1">
        {profile.services.map((offered, index) => (
          <li key={offered.service} className="flex justify-between gap-3">
            <span>
              {t(`services.${offered.service}`)}
              {offered.service === "walk" && offered.durationMinutes
                ? ` (${t("services.minutes", { minutes: offered.durationMinutes })})`
                : ""}
            </span>
            <span className="font-semibold">
              {t("services.from", {
                price: profile.text.prices[index],
                unit: t(`services.unit.${offered.unit}`),
              })}
            </span>
          </li>
        ))}
      </ul>
      <p className="mt-2 text-sm text-stone-700">
        {[
          profile.extraPetCents > 0 ? t("services.extraPetShown", { price: profile.text.extraPet }) : "",
          t("services.maxPetsShown", { pets: profile.maxPets }),
        ]
          .filter(Boolean)
          .join(" · ")}
      </p>
    </InfoSection>
  );
}

export function ProfileView({ profile }: { profile: ShownProfile }) {
  const { t } = useTranslation("profile");
  const [main, ...others] = profile.photos;
  return (
    <article aria-labelledby="profile-name" className="space-y-5 px-4">
      {main ? (
        <img
          src={main.fullUrl}
          alt={t("photos.alt", { name: profile.name, number: 1 })}
          width={main.width}
          height={main.height}
          className="aspect-[4/5] w-full rounded-2xl object-cover"
        />
      ) : (
        <Initials name={profile.name} className="aspect-[4/5] w-full text-6xl" />
      )}
      <header>
        <h2 id="profile-name" className="text-2xl font-bold">
          {profile.name}
        </h2>
        <p className="text-stone-700">{profile.city}</p>
        <p className="text-sm text-stone-700">
          {profile.rating.count > 0
            ? t("rating.summary", { average: profile.rating.average?.toFixed(1), count: profile.rating.count })
            : t("rating.none")}
        </p>
      </header>
      {profile.text.rate !== null || profile.services.length > 0 ? (
        <div>
          {profile.text.rate !== null ? (
            <p className="text-lg font-semibold text-brand-800">{t("sitter.rate", { price: profile.text.rate })}</p>
          ) : null}
          <p className="text-sm text-stone-700">
            {[
              profile.yearsExperience !== null ? t("sitter.yearsExperience", { count: profile.yearsExperience }) : "",
              t("sitter.completedBookings", { count: profile.completedBookings }),
            ]
              .filter(Boolean)
              .join(" · ")}
          </p>
        </div>
      ) : null}
      {profile.services.length > 0 ? <ServicesOffered profile={profile} /> : null}
      {profile.cancellationPolicy !== null ? (
        <InfoSection id="cancellation-policy" title={t("cancellation.title")}>
          <p>
            <span className="font-semibold">{t(`cancellation.${profile.cancellationPolicy}.name`)}</span>
            {" · "}
            {t(`cancellation.${profile.cancellationPolicy}.terms`)}
          </p>
        </InfoSection>
      ) : null}
      {profile.bio ? (
        <InfoSection id="about" title={t("public.about")}>
          <p className="whitespace-pre-line text-stone-800">{profile.bio}</p>
        </InfoSection>
      ) : null}
      {profile.caresFor.length > 0 ? (
        <InfoSection id="cares-for" title={t("sitterSetup.caresFor")}>
          <p>{profile.caresFor.map((type) => t(`pet.typesPlural.${type}`)).join(", ")}</p>
        </InfoSection>
      ) : null}
      {profile.experience.length > 0 ? (
        <InfoSection id="experience" title={t("sitterSetup.experience")}>
          <ul className="mt-1 flex flex-wrap gap-2">
            {profile.experience.map((id) => (
              <li key={id} className="rounded-full bg-brand-50 px-3 py-1 text-sm text-brand-800">
                {t(`experience.${id}`)}
              </li>
            ))}
          </ul>
        </InfoSection>
      ) : null}
      {others.length > 0 ? (
        <ul className="grid grid-cols-3 gap-2" aria-label={t("photos.title")}>
          {others.map((photo, index) => (
            <li key={photo.id}>
              <img
                src={photo.cardUrl}
                alt={t("photos.alt", { name: profile.name, number: index + 2 })}
                className="aspect-square w-full rounded-xl object-cover"
              />
            </li>
          ))}
        </ul>
      ) : null}
      {profile.pets.length > 0 ? (
        <section aria-labelledby="pets" className="space-y-2">
          <h3 id="pets" className="font-semibold">
            {t("public.pets", { name: profile.name })}
          </h3>
          <ul className="grid grid-cols-2 gap-3">
            {profile.pets.map((pet) => (
              <li key={pet.id} className="card p-3">
                {pet.photos[0] ? (
                  <img
                    src={pet.photos[0].cardUrl}
                    alt={pet.name}
                    className="aspect-square w-full rounded-xl object-cover"
                  />
                ) : null}
                <p className="mt-2 font-semibold">{pet.name}</p>
                <p className="text-sm text-stone-700">
                  {[t(`pet.types.${pet.petType}`), pet.breed ? t(`breeds.${pet.breed}`) : "", pet.age]
                    .filter(Boolean)
                    .join(" · ")}
                </p>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </article>
  );
}

function InfoSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h3 id={id} className="font-semibold">
        {title}
      </h3>
      {children}
    </section>
  );
}

export function Initials({ name, className = "" }: { name: string; className?: string }) {
  const initials = name
    .split(/\s+/)
    .map((part) => part[0] ?? "")
    .join("")
    .slice(0, 2)
    .toUpperCase();
  const hue = [...name].reduce((sum, char) => sum + char.charCodeAt(0), 0) % 360;
  return (
    <div
      aria-hidden
      className={`flex items-center justify-center rounded-2xl font-bold text-white ${className}`}
      style={{ backgroundColor: `hsl(${hue} 45% 35%)` }}
    >
      {initials}
    </div>
  );
}

export function ProfileLink({ userId, children }: { userId: string; children: ReactNode }) {
  return (
    <Link to={`/users/${userId}`} className="link">
      {children}
    </Link>
  );
}
