export { DEFAULT_SLOT, PRESET_NAMES, addSlotFields, addSlotSchema } from "./schema";
