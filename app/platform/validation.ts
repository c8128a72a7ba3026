import * as z from "zod/v4-mini";

// zod/v4-mini (functions), so that only what the forms use reaches the browser.
export { z };

// zod 4 compiles object parsers with `new Function` when it may; the pages' CSP forbids eval
// (no 'unsafe-eval'), and even probing for it logs a violation. Set before any schema is built.
z.config({ jitless: true });

// Unlike z.email(): runs after trimming, and sets no HTML `pattern` whose untranslated message would replace ours.
export const isEmail = (message: string) => z.refine<string>((value) => z.regexes.email.test(value), message);

// zod 3's uuid (any version), as a refine so that the hidden field gets no HTML pattern.
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
export const uuid = (message: string) => z.string(message).check(z.refine((value) => UUID.test(value), message));

export const optionalText = (max: number, message: string | undefined = "validation.tooLong") =>
  z._default(z.optional(z.string().check(z.trim(), maxLength(max, message))), "");

// zod 4 measures anything with a length, so a field sent twice (a list) would also be "too short".
const onceText = { when: (payload: z.core.ParsePayload) => payload.issues.every((issue) => issue.continue === true) };
export const minLength = (minimum: number, message?: string) => z.minLength(minimum, { error: message, ...onceText });
export const maxLength = (maximum: number, message?: string) => z.maxLength(maximum, { error: message, ...onceText });

/*
 * Contact data in free text that is kept for good (the audit log): an email address, or a phone
 * number (7 to 15 digits, spaces, dots, dashes or brackets between them). Ids, dates and amounts
 * are not: digits joined to letters or to a UUID's dashes, and ISO dates, do not count.
 */
const EMAIL_IN_TEXT = /[^\s@<>()[\]"',;:]+@[^\s@<>()[\]"',;:]+\.[a-z]{2,}/gi;
const PHONE_IN_TEXT = /(?<![\p{L}\p{N}_-])\+?\(?\d[\d\s().-]{5,}\d(?![\p{L}\p{N}_])/gu;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function phoneNumbersIn(text: string): string[] {
  return [...text.matchAll(PHONE_IN_TEXT)]
    .map((match) => match[0].trim())
    .filter((found) => {
      const digits = found.replace(/\D/g, "").length;
      return digits >= 7 && digits <= 15 && !ISO_DATE.test(found);
    });
}

export function holdsContactData(text: string): boolean {
  return new RegExp(EMAIL_IN_TEXT.source, "i").test(text) || phoneNumbersIn(text).length > 0;
}

export function withoutContactData(text: string): string {
  let clean = text.replace(EMAIL_IN_TEXT, "[…]");
  for (const phone of phoneNumbersIn(clean)) clean = clean.replace(phone, "[…]");
  return clean;
}

export const noContactData = (message: string) => z.refine<string>((value) => !holdsContactData(value), message);
