import { describe, expect, it } from "vitest";
import { honeypot, honeypotInputProps, HONEYPOT_INTERVAL_MS, isSpam } from "./honeypot.server";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

describe("the honeypot", () => {
  const props = honeypot.getInputProps();
  const valid = { [props.nameFieldName]: "", [props.validFromFieldName!]: props.encryptedValidFrom };

  it("lets a form through that carries its fields as the page renders them", () => {
    expect(isSpam(form({ email: "a@example.com", ...valid }))).toBe(false);
  });

  it("counts a form without its fields as spam (remix-utils alone would skip the check)", () => {
    expect(() => honeypot.check(form({ email: "a@example.com" }))).not.toThrow();
    expect(isSpam(form({ email: "a@example.com" }))).toBe(true);
    expect(isSpam(form({ email: "a@example.com", [props.nameFieldName]: "" }))).toBe(true);
    expect(isSpam(form({ email: "a@example.com", [props.validFromFieldName!]: props.encryptedValidFrom }))).toBe(true);
  });

  it("counts a filled field or a valid-from time from the future as spam", () => {
    expect(isSpam(form({ ...valid, [props.nameFieldName]: "bot" }))).toBe(true);
    const future = honeypot.getInputProps({ validFromTimestamp: Date.now() + 60_000 });
    expect(isSpam(form({ ...valid, [props.validFromFieldName!]: future.encryptedValidFrom }))).toBe(true);
  });

  it("hands every page the same value within an interval, a new one after it, and each passes the check", () => {
    const at = Date.now() - 2 * HONEYPOT_INTERVAL_MS;
    const first = honeypotInputProps(at);
    expect(honeypotInputProps(at + HONEYPOT_INTERVAL_MS - 1)).toBe(first);
    const next = honeypotInputProps(at + HONEYPOT_INTERVAL_MS);
    expect(next.encryptedValidFrom).not.toBe(first.encryptedValidFrom);
    for (const props of [first, next]) {
      expect(isSpam(form({ [props.nameFieldName]: "", [props.validFromFieldName!]: props.encryptedValidFrom }))).toBe(
        false,
      );
    }
  });
});
