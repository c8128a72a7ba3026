import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { getPublicProfile } from "~/features/profiles/index.server";
import { blockedBy, blockPerson, hasBlocked, unblockPerson, type BlockedPerson } from "~/features/safety/index.server";
import { formDataOf } from "~/platform/forms.server";
import { titleFrom } from "~/platform/page-title";
import { safeRedirectTarget } from "~/platform/redirect.server";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { PageHeader } from "~/platform/ui/page-header";
import { SubmitButton } from "~/platform/ui/submit-button";

/*
 * The privacy section: the people one blocked, with Unblock; and, with ?block=<id>, the page that
 * confirms a block asked for from a profile or a chat (no JavaScript needed for either).
 */
export const handle = {
  i18n: ["safety"],
  title: titleFrom<typeof loader>((data, t) =>
    data.blocking ? t("safety:block.title", { name: data.blocking.name }) : t("safety:privacy.title"),
  ),
};

const backOf = (url: URL) => safeRedirectTarget(url.searchParams.get("back"), "/dashboard");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const asked = url.searchParams.get("block");
  if (asked === null) return { blocking: null, blocked: await blockedBy(user.id) };
  const back = backOf(url);
  if (asked === user.id) throw await redirectWithToast(back, { type: "error", title: "safety:block.refusals.self" });
  const profile = await getPublicProfile(asked);
  // Someone who blocked the asker is not there for them.
  if (!profile || (await hasBlocked(asked, user.id))) throw new Response("Not found", { status: 404 });
  return { blocking: { userId: profile.id, name: profile.name, back }, blocked: [] as BlockedPerson[] };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await formDataOf(request);
  const intent = form.get("intent");
  const userId = form.get("userId");
  if ((intent !== "unblock" && intent !== "block") || typeof userId !== "string" || userId.length > 64)
    throw new Response("Bad request", { status: 400 });
  if (intent === "unblock") {
    // Only one's own blocks can be lifted: anyone else's id finds nothing.
    if (!(await unblockPerson(user.id, userId))) throw new Response("Not found", { status: 404 });
    return redirectWithToast("/profile/privacy", { type: "success", title: "safety:privacy.unblocked" });
  }
  const back = backOf(new URL(request.url));
  if (userId !== user.id && (await hasBlocked(userId, user.id))) throw new Response("Not found", { status: 404 });
  const result = await blockPerson(user.id, userId);
  if (result === "not-found") throw new Response("Not found", { status: 404 });
  if (result === "self" || result === "inactive")
    return redirectWithToast(back, { type: "error", title: `safety:block.refusals.${result}` });
  return redirectWithToast(back, {
    type: "success",
    title: "safety:block.doneTitle",
    description: "safety:block.doneBody",
  });
}

function BlockConfirm({ userId, name }: { userId: string; name: string }) {
  const { t } = useTranslation("safety");
  return (
    <Form method="post" className="space-y-4 px-4 pb-8">
      <input type="hidden" name="userId" value={userId} />
      <p>{t("block.explain", { name })}</p>
      <ul className="list-disc space-y-1 pl-6 text-stone-700">
        <li>{t("block.effects.deck")}</li>
        <li>{t("block.effects.chat")}</li>
        <li>{t("block.effects.bookings")}</li>
        <li>{t("block.effects.undo")}</li>
      </ul>
      <SubmitButton name="intent" value="block" className="w-full">
        {t("block.submit", { name })}
      </SubmitButton>
    </Form>
  );
}

export default function Privacy() {
  const { t } = useTranslation("safety");
  const { blocking, blocked } = useLoaderData<typeof loader>();
  if (blocking) {
    return (
      <>
        <PageHeader title={t("block.title", { name: blocking.name })} backTo={blocking.back} />
        <BlockConfirm userId={blocking.userId} name={blocking.name} />
      </>
    );
  }
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
