export { calendarFeedOf, calendarFile, renewCalendarFeed, stopCalendarFeed } from "./feed.server";
export { calendarAddressSection } from "./personal-data.server";
