export { discardAttachment, mayViewMedia, storeAttachment } from "./attachments.server";
export { conversationWith, ensureConversation, listConversations, markConversationRead, postCard, readConversation, sendMessage, unreadMessageCount } from "./messages.server";
