export { DEFAULT_SLOT, PRESET_NAMES } from "./presets";
export { addSlotFields, addSlotSchema } from "./schema";
