// Column types that tables of more than one owner use; no tables here.

/** Times are ISO-8601 strings in UTC; booleans are 0/1 integers (SQLite has no boolean). */
export type IsoTime = string;

export type PetType = "dog" | "cat";
export type CancellationPolicy = "flexible" | "moderate" | "strict";
