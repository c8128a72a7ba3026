import { Link, useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { LanguageSwitcher } from "~/platform/ui/language-switcher";
import { LegalLinks } from "~/platform/ui/legal-links";
import { PawLogo } from "~/platform/ui/logo";

export default function Welcome() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => navigate("/select-role"), 2000);
    return () => clearTimeout(timer);
  }, [navigate]);
  return (
    <main
      id="main"
      className="mx-auto flex min-h-[85dvh] max-w-md flex-col items-center justify-center gap-6 px-6 text-center"
    >
      <PawLogo className="size-24" />
      <div>
        <h1 className="text-4xl font-extrabold tracking-tight text-brand-800">Trusted Sitters</h1>
        <p className="mt-2 text-lg text-stone-700">{t("tagline")}</p>
      </div>
      <Link to="/select-role" className="btn btn-primary w-full">
        {t("welcome.getStarted")}
      </Link>
      <p className="text-stone-700">
        {t("welcome.haveAccount")}{" "}
        <Link to="/auth?mode=login" className="link">
          {t("welcome.signIn")}
        </Link>
      </p>
      <LanguageSwitcher />
      <LegalLinks className="py-2" />
    </main>
  );
}
