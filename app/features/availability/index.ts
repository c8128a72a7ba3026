export { DEFAULT_SLOT, PRESET_NAMES } from "./presets";
export { addSlotFields, addSlotSchema } from "./schema";
export { SlotList } from "./slot-list";
export { MonthCalendar } from "./month-calendar";

// The forms' schemas, for validation in the browser once a form is in use.
export const loadAvailabilitySchemas = () => import("./schema");
