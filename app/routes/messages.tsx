import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "remix-utils/use-hydrated";
import {
  conversationPage,
  conversationWith,
  markConversationRead,
  parseCursor,
  readConversation,
  sendFromForm,
} from "~/features/messages/index.server";
import { Chat, ConversationList, conversationsText, messagesText } from "~/features/messages";
import { CHAT_FILE_MAX_BYTES } from "~/features/media";
import { readImageUpload } from "~/features/media/index.server";
import { Initials } from "~/features/profiles";
import { isOwner } from "~/features/profiles/index.server";
import { now } from "~/platform/clock.server";
import { translatorFor, languageOf } from "~/platform/i18n.server";
import { requireUser } from "~/platform/session.server";

export const handle = {
  i18n: ["messages", "bookings", "safety", "meetGreets"],
  wide: true,
  uploads: true,
  title: "messages:title",
};

/** A message id from an "Earlier messages" link; anything else shows the newest messages. */
const messageIdFrom = (text: string | null) => (text && /^[1-9]\d{0,14}$/.test(text) ? Number(text) : null);

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const withUser = url.searchParams.get("userId");
  let conversationId = url.searchParams.get("c");
  if (withUser) {
    conversationId = await conversationWith(user.id, withUser);
    if (!conversationId) throw new Response("Not found", { status: 404 });
  }
  const before = messageIdFrom(url.searchParams.get("before"));
  const open = conversationId ? await readConversation(user.id, conversationId, { before }) : null;
  if (conversationId && !open) throw new Response("Not found", { status: 404 });
  if (open && before === null) await markConversationRead(user.id, open.id);
  const list = parseCursor(url.searchParams.get("list"));
  const [page, language] = await Promise.all([conversationPage(user.id, list), languageOf(request)]);
  const reader = { language, timeZone: user.time_zone, now: now(), t: await translatorFor(language, "messages") };
  return {
    conversations: conversationsText(page.conversations, reader),
    listCursor: list ? url.searchParams.get("list") : null,
    earlierConversations: page.earlier,
    open: open && { ...open, before, messages: messagesText(open.messages, reader) },
    // An owner talking with a sitter may ask to meet them before booking.
    mayMeet: Boolean(open && !open.closed && isOwner(user.role) && open.other.label === "companion"),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const multipart = /^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? "");
  const upload = multipart
    ? await readImageUpload(request, { field: "attachment", maxFiles: 1, maxFileBytes: CHAT_FILE_MAX_BYTES })
    : null;
  const sent = await sendFromForm(user.id, request, upload);
  if (sent.status === "not-found") throw new Response("Not found", { status: 404 });
  if (sent.status === "refused") return data({ error: sent.error }, { status: 400 });
  return redirect(`/messages?c=${encodeURIComponent(sent.conversationId)}`);
}

export default function Messages() {
  const { t } = useTranslation("messages");
  const hydrated = useHydrated();
  const { conversations, listCursor, earlierConversations, open, mayMeet } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="px-4 pb-6">
      <header className="flex flex-wrap items-center gap-3 pt-4 pb-3">
        <Link
          to="/dashboard"
          className="-ml-2 inline-flex size-11 items-center justify-center rounded-full hover:bg-stone-200"
        >
          <svg aria-hidden viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="M15 18l-6-6 6-6" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          <span className="sr-only">{t("common:nav.back")}</span>
        </Link>
        <div className="flex-1">
          <h1 className="text-2xl font-bold tracking-tight">{t("title")}</h1>
          <p className="text-sm text-stone-700">{t("subtitle")}</p>
        </div>
        {hydrated ? (
          <span className="rounded-full bg-emerald-100 px-2.5 py-1 text-xs font-semibold text-emerald-900">
            {t("active")}
          </span>
        ) : null}
      </header>

      <div className="grid gap-4 md:grid-cols-[18rem_1fr]">
        <ConversationList
          conversations={conversations}
          openId={open?.id ?? null}
          listCursor={listCursor}
          earlier={earlierConversations}
          className={`card p-2 ${open ? "hidden md:block" : ""}`}
          Initials={Initials}
        />

        <section aria-labelledby="chat-title" className={`card overflow-hidden p-0 ${open ? "" : "hidden md:block"}`}>
          {open ? (
            <>
              <div className="flex flex-wrap items-center gap-x-2 gap-y-1 border-b border-stone-200 p-3">
                <Link
                  to={listCursor ? `/messages?list=${encodeURIComponent(listCursor)}` : "/messages"}
                  className="link md:hidden"
                >
                  {t("backToList")}
                </Link>
                <h2 id="chat-title" className="min-w-0 flex-1 text-lg font-semibold break-words">
                  <Link to={`/users/${open.other.id}`} className="hover:underline">
                    {open.other.name}
                  </Link>
                </h2>
                <span className="text-sm text-stone-600">{t(`label.${open.other.label}`)}</span>
                {mayMeet ? (
                  <Link
                    to={`/meet/new?sitterId=${encodeURIComponent(open.other.id)}`}
                    className="text-sm font-semibold text-brand-800 underline"
                  >
                    {t("meetGreets:link")}
                  </Link>
                ) : null}
                {open.closed ? null : (
                  <Link
                    to={`/profile/privacy?block=${open.other.id}&back=${encodeURIComponent(`/messages?c=${open.id}`)}`}
                    className="text-sm font-semibold text-stone-700 underline"
                  >
                    {t("safety:block.link")}
                  </Link>
                )}
              </div>
              <Chat key={open.id} conversation={open} error={actionData?.error} />
            </>
          ) : (
            <div className="flex h-[600px] max-h-[calc(100dvh-12rem)] items-center justify-center p-6 text-center text-stone-700">
              <h2 id="chat-title">{t("choose")}</h2>
            </div>
          )}
        </section>
      </div>
    </div>
  );
}
