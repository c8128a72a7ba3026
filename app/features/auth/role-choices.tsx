import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";

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
