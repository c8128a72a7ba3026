export { discardAttachment, mayViewMedia, storeAttachment } from "./attachments.server";
export {
  conversationPage,
  conversationWith,
  ensureConversation,
  listConversations,
  parseCursor,
} from "./conversations.server";
export { markConversationRead, postCard, readConversation, sendMessage, unreadMessageCount } from "./messages.server";
export { hideMessage } from "./moderation.server";
export { sendFromForm } from "./send.server";
export type { SendAnswer } from "./send.server";
export { messagesSection } from "./personal-data.server";
