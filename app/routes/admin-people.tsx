import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useConsoleFormat } from "~/features/admin";
import { searchPeople } from "~/features/admin/index.server";
import { requireAdmin } from "~/platform/operator.server";

export const handle = { i18n: ["admin"], title: "admin:people.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const q = (new URL(request.url).searchParams.get("q") ?? "").slice(0, 100);
  return { q, people: await searchPeople(q) };
}

export default function AdminPeople() {
  const { t } = useTranslation("admin");
  const { q, people } = useLoaderData<typeof loader>();
  const format = useConsoleFormat();
  return (
    <>
      <h1 className="mb-3 text-2xl font-bold tracking-tight">{t("people.title")}</h1>
      <Form method="get" role="search" className="mb-4 flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1 space-y-1">
          <label htmlFor="people-q" className="block text-sm font-semibold text-stone-800">
            {t("people.search")}
          </label>
          <input id="people-q" type="search" name="q" defaultValue={q} maxLength={100} className="input" />
        </div>
        <button type="submit" className="btn btn-primary">
          {t("people.find")}
        </button>
      </Form>
      {people.length === 0 ? (
        <p className="text-stone-700">{t("people.none")}</p>
      ) : (
        <ul className="card divide-y divide-stone-200 p-0">
          {people.map((person) => (
            <li key={person.id}>
              <Link
                to={`/admin/people/${person.id}`}
                className="flex flex-wrap items-center justify-between gap-2 p-3 hover:bg-stone-50"
              >
                <span className="min-w-0">
                  <span className="block font-semibold break-words">{person.name}</span>
                  {person.email ? <span className="block text-sm break-all text-stone-700">{person.email}</span> : null}
                </span>
                <span className="flex flex-wrap items-center gap-2 text-sm">
                  <span>{t(`roles.${person.role}`)}</span>
                  {person.isAdmin ? (
                    <span className="rounded-full bg-brand-100 px-2 font-semibold text-brand-900">
                      {t("people.operator")}
                    </span>
                  ) : null}
                  {person.suspended ? (
                    <span className="rounded-full bg-red-100 px-2 font-semibold text-red-900">
                      {t("people.suspended")}
                    </span>
                  ) : null}
                  {person.deleted ? (
                    <span className="rounded-full bg-stone-200 px-2 font-semibold text-stone-900">
                      {t("people.deleted")}
                    </span>
                  ) : null}
                  <span className="text-stone-700">{t("people.joined", { when: format.when(person.createdAt) })}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
