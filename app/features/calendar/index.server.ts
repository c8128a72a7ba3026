export { calendarFeedOf, calendarFile, exportCalendarFeed, renewCalendarFeed, stopCalendarFeed } from "./feed.server";
