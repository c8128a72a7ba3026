import { useTranslation } from "react-i18next";
import { PawLogo } from "~/platform/ui/logo";

export const handle = { title: "common:offline.title" };

// The service worker (public/sw.js) keeps a copy of this page and answers with it when the network is gone.
export default function Offline() {
  const { t } = useTranslation();
  return (
    <main
      id="main"
      className="mx-auto flex min-h-[85dvh] max-w-md flex-col items-center justify-center gap-4 px-6 text-center"
    >
      <PawLogo className="size-20" />
      <h1 className="text-2xl font-bold tracking-tight">{t("offline.title")}</h1>
      <p className="text-stone-700">{t("offline.body")}</p>
      <a href="/" className="btn btn-primary w-full">
        {t("offline.retry")}
      </a>
    </main>
  );
}
