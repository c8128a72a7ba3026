import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { RoleChoices } from "~/features/auth";
import { LanguageSwitcher } from "~/platform/ui/language-switcher";
import { PageHeader } from "~/platform/ui/page-header";

export const handle = { title: "auth:signup.submit" };

export default function SelectRole() {
  const { t } = useTranslation("auth");
  return (
    <main id="main" className="mx-auto max-w-md pb-10">
      <PageHeader title={t("selectRole.title")} backTo="/welcome" />
      <div className="space-y-4 px-4">
        <p className="text-lg text-stone-700">{t("selectRole.question")}</p>
        <RoleChoices />
        <p className="pt-2 text-center text-stone-700">
          {t("selectRole.haveAccount")}{" "}
          <Link to="/auth?mode=login" className="link">
            {t("login.submit")}
          </Link>
        </p>
        <LanguageSwitcher className="justify-center pt-4" />
      </div>
    </main>
  );
}
