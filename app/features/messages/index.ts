export { Chat } from "./chat";
export { sendSchema } from "./schema";
export { conversationsText, messagesText } from "./text";
export { ConversationList } from "./conversation-list";
