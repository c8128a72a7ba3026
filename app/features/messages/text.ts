import type { TFunction } from "i18next";
import { dateTimeFormat, type Reader } from "~/platform/format";
import { daysAgoIn } from "~/platform/time";
import type { ConversationSummary } from "./conversations.server";
import type { MessageView } from "./messages.server";

/** A conversation as its row shows it: the other person, the last message's words and when, nothing more. */
export type ShownConversation = Omit<ConversationSummary, "activityAt" | "other" | "lastMessage"> & {
  other: Omit<ConversationSummary["other"], "id">;
  lastMessage: Omit<NonNullable<ConversationSummary["lastMessage"]>, "at"> | null;
  time: string | null;
};
export type ShownMessage = MessageView & { time: string; day: string };

/**
 * When each conversation last spoke, as messaging apps write it: the time today, "Yesterday", the
 * weekday within the week, the date before that (all in the reader's time zone).
 */
export function conversationsText(
  conversations: ConversationSummary[],
  { language, timeZone, now, t }: Reader & { now: Date; t: TFunction },
): ShownConversation[] {
  const time = dateTimeFormat(language, { timeStyle: "short", timeZone });
  const weekday = dateTimeFormat(language, { weekday: "long", timeZone });
  const date = dateTimeFormat(language, { dateStyle: "medium", timeZone });
  const when = (at: Date) => {
    const days = daysAgoIn(timeZone, at, now);
    if (days <= 0) return time.format(at);
    if (days === 1) return t("days.yesterday");
    if (days < 7) return weekday.format(at);
    return date.format(at);
  };
  return conversations.map(({ id, other, lastMessage, unread, bookingStatus }) => ({
    id,
    other: { name: other.name, photo: other.photo, label: other.label },
    lastMessage: lastMessage && { body: lastMessage.body, mine: lastMessage.mine, removed: lastMessage.removed },
    time: lastMessage ? when(new Date(lastMessage.at)) : null,
    unread,
    bookingStatus,
  }));
}

export function messagesText(
  messages: MessageView[],
  { language, timeZone, now, t }: Reader & { now: Date; t: TFunction },
): ShownMessage[] {
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
