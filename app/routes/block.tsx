import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { getPublicProfile } from "~/features/profiles/index.server";
import { blockPerson, hasBlocked } from "~/features/safety/index.server";
import { formDataOf } from "~/platform/forms.server";
import { titleFrom } from "~/platform/page-title";
import { safeRedirectTarget } from "~/platform/redirect.server";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { PageHeader } from "~/platform/ui/page-header";
import { SubmitButton } from "~/platform/ui/submit-button";

export const handle = { i18n: ["safety"], title: titleFrom<typeof loader>(({ name }, t) => t("safety:block.title", { name })) };

const backOf = (request: Request) => safeRedirectTarget(new URL(request.url).searchParams.get("back"), "/dashboard");

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const userId = params.userId ?? "";
  const back = backOf(request);
  if (userId === user.id) return redirectWithToast(back, { type: "error", title: "safety:block.refusals.self" });
  const profile = await getPublicProfile(userId);
  if (!profile || (await hasBlocked(userId, user.id))) throw new Response("Not found", { status: 404 });
  return { userId: profile.id, name: profile.name, back };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  await formDataOf(request);
  const back = backOf(request);
  const userId = params.userId ?? "";
  if (userId !== user.id && (await hasBlocked(userId, user.id))) throw new Response("Not found", { status: 404 });
  const result = await blockPerson(user.id, userId);
  if (result === "not-found") throw new Response("Not found", { status: 404 });
  if (result === "self") return redirectWithToast(back, { type: "error", title: "safety:block.refusals.self" });
  return redirectWithToast(back, { type: "success", title: "safety:block.doneTitle", description: "safety:block.doneBody" });
}

export default function Block() {
  const { t } = useTranslation("safety");
  const { name, back } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("block.title", { name })} backTo={back} />
      <Form method="post" className="space-y-4 px-4 pb-8">
        <p>{t("block.explain", { name })}</p>
        <ul className="list-disc space-y-1 pl-6 text-stone-700">
          <li>{t("block.effects.deck")}</li>
          <li>{t("block.effects.chat")}</li>
          <li>{t("block.effects.bookings")}</li>
          <li>{t("block.effects.undo")}</li>
        </ul>
        <SubmitButton className="w-full">{t("block.submit", { name })}</SubmitButton>
      </Form>
    </>
  );
}
