// Written by features/messages: conversations, their messages and what each member has read.

import type { Generated } from "kysely";
import type { IsoTime } from "./shared";

export interface ConversationsTable {
  id: string;
  /** The smaller of the two user ids. */
  user_a_id: string;
  user_b_id: string;
  created_at: IsoTime;
  last_message_at: IsoTime | null;
}

export interface MessagesTable {
  id: Generated<number>;
  conversation_id: string;
  sender_id: string;
  body: string;
  media_key: string | null;
  media_type: "image" | "video" | null;
  media_preview_key: string | null;
  /** A card linking to a page of the app (a visit report), or null for a plain message. */
  card_link: Generated<string | null>;
  created_at: IsoTime;
  /** Set when an operator removed the message: everyone sees "Removed by Trusted Sitters". */
  hidden_at: IsoTime | null;
  hidden_by: string | null;
}

export interface ConversationReadsTable {
  conversation_id: string;
  user_id: string;
  last_read_message_id: Generated<number>;
  /** Messages from the other member after last_read_message_id: kept up to date by sendMessage and markConversationRead. */
  unread_count: Generated<number>;
}

export interface MessageTables {
  conversations: ConversationsTable;
  messages: MessagesTable;
  conversation_reads: ConversationReadsTable;
}
