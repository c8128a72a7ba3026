// Apart from the schema: the availability page shows them without loading zod.
export interface SlotTimes {
  start: string;
  end: string;
}

export const DEFAULT_SLOT: SlotTimes = { start: "09:00", end: "17:00" };

export const PRESET_NAMES = ["morning", "afternoon", "evening", "fullDay"] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

export const PRESETS: Record<PresetName, SlotTimes> = {
  morning: { start: "09:00", end: "12:00" },
  afternoon: { start: "13:00", end: "17:00" },
  evening: { start: "17:00", end: "20:00" },
  fullDay: { start: "09:00", end: "17:00" },
};
