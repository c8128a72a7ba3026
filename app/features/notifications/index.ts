export { NotificationItem, notificationText } from "./notification-item";
export { NotificationSound, playSound } from "./notification-sound";
export { NOTIFICATION_TABS } from "./tabs";
export type { NotificationTab } from "./tabs";
