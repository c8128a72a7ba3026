/** A free-text care field as the list of its non-empty lines. */
export function careLines(value: string): string[] {
  return value
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}
