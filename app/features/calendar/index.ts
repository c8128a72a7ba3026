export { CalendarSection } from "./calendar-section";
