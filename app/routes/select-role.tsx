import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
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

/** The two ways to join, as links that carry the role to the sign-up form. */
export function RoleChoices() {
  const { t } = useTranslation("auth");
  const choices = [
    { role: "owner", title: t("roles.owner"), body: t("roles.ownerBody"), icon: "🐶" },
    { role: "walker", title: t("roles.sitter"), body: t("roles.sitterBody"), icon: "🦮" },
  ];
  return (
    <ul className="space-y-3">
      {choices.map((choice) => (
        <li key={choice.role}>
          <Link
            to={`/auth?mode=signup&role=${choice.role}`}
            className="card flex items-center gap-4 transition hover:ring-brand-600"
          >
            <span aria-hidden className="text-4xl">
              {choice.icon}
            </span>
            <span>
              <span className="block text-lg font-semibold">{choice.title}</span>
              <span className="block text-stone-700">{choice.body}</span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
