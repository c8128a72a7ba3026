import { Link } from "@remix-run/react";
import type { ComponentType } from "react";
import { useTranslation } from "react-i18next";
import type { ShownConversation } from "./text";

/**
 * `listCursor`: the page of the list being shown (kept in the links, so opening a conversation keeps the page).
 * `Initials`: the profiles area's stand-in for a missing photo, handed in (profiles sits above messages).
 */
export function ConversationList({
  conversations,
  openId,
  listCursor,
  earlier,
  className,
  Initials,
}: {
  conversations: ShownConversation[];
  openId: string | null;
  listCursor: string | null;
  earlier: string | null;
  className: string;
  Initials: ComponentType<{ name: string; className: string }>;
}) {
  const { t } = useTranslation("messages");
  const listParam = listCursor ? `&list=${encodeURIComponent(listCursor)}` : "";
  return (
    <nav aria-label={t("list")} className={className}>
      {listCursor ? (
        <Link to={openId ? `/messages?c=${openId}` : "/messages"} className="link block p-3 text-sm">
          {t("newerConversations")}
        </Link>
      ) : null}
      {conversations.length === 0 ? (
        <p className="p-3 text-stone-700">{t("none")}</p>
      ) : (
        <ul className="divide-y divide-stone-100">
          {conversations.map((conversation) => (
            <li key={conversation.id}>
              <Link
                to={`/messages?c=${conversation.id}${listParam}`}
                aria-current={conversation.id === openId ? "page" : undefined}
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
                    {conversation.time ? (
                      <span className="shrink-0 text-xs text-stone-600">{conversation.time}</span>
                    ) : null}
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
      {earlier ? (
        <Link
          to={`/messages?list=${encodeURIComponent(earlier)}${openId ? `&c=${openId}` : ""}`}
          className="link block p-3 text-sm"
        >
          {t("earlierConversations")}
        </Link>
      ) : null}
    </nav>
  );
}
