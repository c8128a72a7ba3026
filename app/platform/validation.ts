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
