export {
  countUnread,
  listNotifications,
  markAllRead,
  markMessageNotificationsRead,
  notify,
  openNotification,
  replaceMessagePreview,
  setSounds,
} from "./notifications.server";
export { enqueueNewsEmail } from "./news-email.server";
export { notificationsSection } from "./personal-data.server";
