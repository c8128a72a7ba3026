/*
 * How values the database stores as text or integers become what the features work with. Both
 * engines store the same types (JSON as text, flags as 0/1), and the features read and write those
 * columns only through these codecs, never with JSON.parse or `? 1 : 0` of their own.
 */

export interface Codec<Value, Stored> {
  read(stored: Stored): Value;
  write(value: Value): Stored;
}

/** A yes/no column: 0 or 1 (PostgreSQL boolean expressions come back as true/false, also read here). */
export const flag: Codec<boolean, 0 | 1> & { read(stored: number | boolean | null | undefined): boolean } = {
  read: (stored) => stored === true || (typeof stored === "number" && stored !== 0),
  write: (value) => (value ? 1 : 0),
};

/** Any JSON value stored as text. */
export function json<Value>(): Codec<Value, string> {
  return {
    read: (stored) => JSON.parse(stored) as Value,
    write: (value) => JSON.stringify(value),
  };
}

/** A JSON array of strings (a profile's care types, a pet's temperament): anything else reads as empty. */
export const jsonList: Codec<string[], string> & { write(value: readonly string[]): string } = {
  read(stored) {
    const value: unknown = JSON.parse(stored);
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
  },
  write: (value) => JSON.stringify(value),
};

/** A JSON object stored as text (notification data, event payloads, audit details). */
export const jsonObject: Codec<Record<string, unknown>, string> = {
  read(stored) {
    const value: unknown = JSON.parse(stored);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  },
  write: (value) => JSON.stringify(value),
};
