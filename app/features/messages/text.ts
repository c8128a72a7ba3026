import type { TFunction } from "i18next";
import { dateTimeFormat, type Reader } from "~/platform/format";
import { daysAgoIn } from "~/platform/time";
import type { ConversationSummary, MessageView } from "./messages.server";

export type ShownConversation = Omit<ConversationSummary, "activityAt"> & { time: string | null };
export type ShownMessage = MessageView & { time: string; day: string };

export function conversationsText(conversations: ConversationSummary[], { language, timeZone }: Reader): ShownConversation[] {
  const time = dateTimeFormat(language, { timeStyle: "short", timeZone });
  return conversations.map(({ activityAt: _activityAt, ...conversation }) => ({ ...conversation, time: conversation.lastMessage ? time.format(new Date(conversation.lastMessage.at)) : null }));
}

export function messagesText(messages: MessageView[], { language, timeZone, now, t }: Reader & { now: Date; t: TFunction }): ShownMessage[] {
  const time = dateTimeFormat(language, { timeStyle: "short", timeZone });
  const date = dateTimeFormat(language, { dateStyle: "medium", timeZone });
  const dayOf = (at: Date) => {
    const days = daysAgoIn(timeZone, at, now);
    if (days <= 0) return t("days.today");
    if (days === 1) return t("days.yesterday");
    if (days < 7) return t("days.ago", { count: days });
    return date.format(at);
  };
  return messages.map((message) => {
    const at = new Date(message.at);
    return { ...message, time: time.format(at), day: dayOf(at) };
  });
}
