import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PawLogo } from "./logo";

export function NotFound() {
  const { t } = useTranslation();
  return (
    <main id="main" className="mx-auto flex min-h-[70vh] max-w-md flex-col items-center justify-center gap-4 px-6 text-center">
      <PawLogo className="size-16" />
      <h1 className="text-3xl font-bold">{t("notFound.title")}</h1>
      <p className="text-stone-700">{t("notFound.body")}</p>
      <Link to="/" className="btn btn-primary">
        {t("notFound.home")}
      </Link>
    </main>
  );
}
