import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "remix-utils/use-hydrated";
import { discardAttachment, storeAttachment, conversationWith, listConversations, markConversationRead, readConversation, sendMessage } from "~/features/messages/index.server";
import { Chat, sendSchema, conversationsText, messagesText } from "~/features/messages";
import { CHAT_FILE_MAX_BYTES } from "~/features/media";
import { readImageUpload } from "~/features/media/index.server";
import { Initials } from "~/features/profiles";
import { now } from "~/platform/clock.server";
import { formDataOf } from "~/platform/forms.server";
import { translatorFor, languageOf } from "~/platform/i18n.server";
import { requireUser } from "~/platform/session.server";

export const handle = { i18n: ["messages", "bookings", "safety"], wide: true, uploads: true, title: "messages:title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const withUser = url.searchParams.get("userId");
  let conversationId = url.searchParams.get("c");
  if (withUser) {
    conversationId = await conversationWith(user.id, withUser);
    if (!conversationId) throw new Response("Not found", { status: 404 });
  }
  const open = conversationId ? await readConversation(user.id, conversationId) : null;
  if (conversationId && !open) throw new Response("Not found", { status: 404 });
  if (open) await markConversationRead(user.id, open.id);
  const [conversations, language] = await Promise.all([listConversations(user.id), languageOf(request)]);
  const reader = { language, timeZone: user.time_zone };
  return {
    conversations: conversationsText(conversations, reader),
    open: open && { ...open, messages: messagesText(open.messages, { ...reader, now: now(), t: await translatorFor(language, "messages") }) },
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const multipart = /^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? "");
  const upload = multipart ? await readImageUpload(request, { field: "attachment", maxFiles: 1, maxFileBytes: CHAT_FILE_MAX_BYTES }) : null;
  if (upload && "error" in upload) return data({ error: upload.error === "media.tooLarge" ? "messages:errors.tooLarge" : "messages:errors.send" }, { status: 400 });
  const parsed = sendSchema.safeParse(Object.fromEntries(upload ? upload.formData : await formDataOf(request)));
  if (!parsed.success) return data({ error: "messages:errors.send" }, { status: 400 });
  const file = upload?.images[0];
  const attachment = file ? await storeAttachment(file, upload?.declaredTypes[0]) : null;
  if (attachment && "refusal" in attachment) return data({ error: attachment.refusal }, { status: 400 });
  const t = await translatorFor(await languageOf(request), "messages");
  const result = await sendMessage(user.id, parsed.data.conversationId, parsed.data.body, attachment, { image: t("media.image"), video: t("media.video") });
  if (result.status !== "sent" && attachment) await discardAttachment(attachment);
  if (result.status === "not-found") throw new Response("Not found", { status: 404 });
  if (result.status === "empty") return data({ error: "messages:errors.empty" }, { status: 400 });
  if (result.status === "closed") return data({ error: "safety:chat.closed" }, { status: 400 });
  return redirect(`/messages?c=${encodeURIComponent(parsed.data.conversationId)}`);
}

export default function Messages() {
  const { t } = useTranslation("messages");
  const hydrated = useHydrated();
  const { conversations, open } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const current = open ? conversations.find((conversation) => conversation.id === open.id) : null;
  return (
    <div className="px-4 pb-6">
      <header className="flex flex-wrap items-center gap-3 pt-4 pb-3">
        <Link to="/dashboard" className="-ml-2 inline-flex size-11 items-center justify-center rounded-full hover:bg-stone-200">
          <svg aria-hidden viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="M15 18l-6-6 6-6" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          <span className="sr-only">{t("common:nav.back")}</span>
        </Link>
        <div className="flex-1">
          <h1 className="text-2xl font-bold tracking-tight">{t("title")}</h1>
          <p className="text-sm text-stone-700">{t("subtitle")}</p>
        </div>
        {hydrated ? <span className="rounded-full bg-emerald-100 px-2.5 py-1 text-xs font-semibold text-emerald-900">{t("active")}</span> : null}
      </header>

      <div className="grid gap-4 md:grid-cols-[18rem_1fr]">
        <nav aria-label={t("list")} className={`card p-2 ${open ? "hidden md:block" : ""}`}>
          {conversations.length === 0 ? (
            <p className="p-3 text-stone-700">{t("none")}</p>
          ) : (
            <ul className="divide-y divide-stone-100">
              {conversations.map((conversation) => (
                <li key={conversation.id}>
                  <Link
                    to={`/messages?c=${conversation.id}`}
                    aria-current={conversation.id === open?.id ? "page" : undefined}
                    className="flex items-center gap-3 rounded-xl p-2 hover:bg-stone-50 aria-[current=page]:bg-brand-50"
                  >
                    {conversation.other.photo ? (
                      <img src={conversation.other.photo} alt="" className="size-12 rounded-full object-cover" />
                    ) : (
                      <Initials name={conversation.other.name} className="size-12 rounded-full text-base" />
                    )}
                    <span className="min-w-0 flex-1">
                      <span className="flex items-baseline justify-between gap-2">
                        <span className="truncate font-semibold">{conversation.other.name}</span>
                        {conversation.time ? <span className="shrink-0 text-xs text-stone-600">{conversation.time}</span> : null}
                      </span>
                      <span className="block text-xs text-stone-600">
                        {t(`label.${conversation.other.label}`)}
                        {conversation.bookingStatus ? ` · ${t(`bookings:status.${conversation.bookingStatus}`)}` : null}
                      </span>
                      <span className="flex items-center justify-between gap-2">
                        <span className="truncate text-sm text-stone-700">
                          {conversation.lastMessage
                            ? `${conversation.lastMessage.mine ? `${t("chat.you")}: ` : ""}${conversation.lastMessage.removed ? t("safety:removed") : conversation.lastMessage.body}`
                            : t("chat.startHint")}
                        </span>
                        {conversation.unread > 0 ? (
                          <span className="shrink-0 rounded-full bg-accent-500 px-2 text-xs font-bold text-stone-950">
                            <span aria-hidden>{conversation.unread}</span>
                            <span className="sr-only">{t("unread", { count: conversation.unread })}</span>
                          </span>
                        ) : null}
                      </span>
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </nav>

        <section aria-labelledby="chat-title" className={`card overflow-hidden p-0 ${open ? "" : "hidden md:block"}`}>
          {open && current ? (
            <>
              <div className="flex flex-wrap items-center gap-x-2 gap-y-1 border-b border-stone-200 p-3">
                <Link to="/messages" className="link md:hidden">
                  {t("backToList")}
                </Link>
                <h2 id="chat-title" className="min-w-0 flex-1 text-lg font-semibold break-words">
                  <Link to={`/users/${current.other.id}`} className="hover:underline">
                    {current.other.name}
                  </Link>
                </h2>
                <span className="text-sm text-stone-600">{t(`label.${current.other.label}`)}</span>
                {open.closed ? null : (
                  <Link to={`/profile/privacy?block=${current.other.id}&back=${encodeURIComponent(`/messages?c=${open.id}`)}`} className="text-sm font-semibold text-stone-700 underline">
                    {t("safety:block.link")}
                  </Link>
                )}
              </div>
              <Chat conversationId={open.id} messages={open.messages} error={actionData?.error} closed={open.closed} />
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
