export const CARE_LINES_MAX = 12;
export const CARE_LINE_MAX_CHARS = 200;
export const CARE_FIELD_LIMITS = {
  houseNotes: 2000,
  vetName: 100,
  vetPhone: 40,
  vetAddress: 300,
  emergencyName: 100,
  emergencyPhone: 40,
} as const;
