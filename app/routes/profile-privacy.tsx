import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { blockedBy, unblockPerson } from "~/features/safety/index.server";
import { formDataOf } from "~/platform/forms.server";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { PageHeader } from "~/platform/ui/page-header";
import { SubmitButton } from "~/platform/ui/submit-button";

export const handle = { i18n: ["safety"], title: "safety:privacy.title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { blocked: await blockedBy(user.id) };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await formDataOf(request);
  const userId = form.get("userId");
  if (form.get("intent") !== "unblock" || typeof userId !== "string" || userId.length > 64) throw new Response("Bad request", { status: 400 });
  // Only one's own blocks can be lifted: anyone else's id finds nothing.
  if (!(await unblockPerson(user.id, userId))) throw new Response("Not found", { status: 404 });
  return redirectWithToast("/profile/privacy", { type: "success", title: "safety:privacy.unblocked" });
}

export default function Privacy() {
  const { t } = useTranslation("safety");
  const { blocked } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("privacy.title")} backTo="/profile" />
      <section aria-labelledby="blocked-title" className="card mx-4 space-y-3">
        <h2 id="blocked-title" className="text-lg font-semibold">
          {t("privacy.blockedTitle")}
        </h2>
        <p className="text-sm text-stone-700">{t("privacy.blockedHint")}</p>
        {blocked.length === 0 ? (
          <p className="text-stone-700">{t("privacy.none")}</p>
        ) : (
          <ul className="divide-y divide-stone-200">
            {blocked.map((person) => (
              <li key={person.userId} className="flex items-center justify-between gap-3 py-2">
                <span className="font-semibold break-words">{person.name}</span>
                <Form method="post">
                  <input type="hidden" name="userId" value={person.userId} />
                  <SubmitButton name="intent" value="unblock" variant="secondary">
                    {t("privacy.unblock")}
                    <span className="sr-only"> {person.name}</span>
                  </SubmitButton>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
