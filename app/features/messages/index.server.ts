export { discardAttachment, mayViewMedia, storeAttachment } from "./attachments.server";
export { conversationWith, ensureConversation, listConversations, markConversationRead, readConversation, sendMessage, unreadMessageCount } from "./messages.server";
