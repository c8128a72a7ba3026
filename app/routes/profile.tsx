import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/platform/session.server";
import { ComingSoon } from "~/platform/ui/coming-soon";
import { LanguageSwitcher } from "~/platform/ui/language-switcher";
import { PageHeader } from "~/platform/ui/page-header";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { name: user.name, email: user.email, city: user.city, role: user.role };
}

export default function Profile() {
  const { t } = useTranslation();
  const user = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("pages.profile.title")} />
      <div className="space-y-4 px-4">
        <section className="card space-y-1" aria-labelledby="profile-name">
          <h2 id="profile-name" className="text-xl font-bold">
            {user.name}
          </h2>
          <p className="text-stone-700">{user.city}</p>
          <p className="text-stone-700">{user.email}</p>
          <p className="text-sm font-semibold text-brand-700">{t(`roles.${user.role}`)}</p>
        </section>
        <section className="card space-y-2">
          <h2 className="font-semibold">{t("language.label")}</h2>
          <LanguageSwitcher />
        </section>
      </div>
      <div className="py-4">
        <ComingSoon what={t("pages.profile.coming")} />
      </div>
      <Form method="post" action="/logout" className="px-4">
        <button type="submit" className="btn btn-secondary w-full">
          {t("nav.logout")}
        </button>
      </Form>
    </>
  );
}
