import { useTranslation } from "react-i18next";

export function ComingSoon({ what }: { what: string }) {
  const { t } = useTranslation();
  return (
    <section className="card mx-4 text-center">
      <h2 className="text-lg font-semibold">{t("comingSoon.title")}</h2>
      <p className="mt-1 text-stone-700">{t("comingSoon.body", { what })}</p>
    </section>
  );
}
