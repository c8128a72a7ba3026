export { discardAttachment, mayViewMedia, storeAttachment } from "./attachments.server";
export {
  conversationPage,
  conversationWith,
  ensureConversation,
  hideMessage,
  listConversations,
  parseCursor,
  markConversationRead,
  postCard,
  readConversation,
  sendMessage,
  unreadMessageCount,
} from "./messages.server";
export { sendFromForm } from "./send.server";
export type { SendAnswer } from "./send.server";
export { messagesSection } from "./personal-data.server";
