// Hostile variations of a valid form submission, the request that carries one, and what an
// action's answer says about it (its status, whether it refused, the messages it carries).

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { takeToast } from "~/platform/toast.server";
import type { Encoding, Fields } from "./form";

/** Strings that have broken web apps before. */
const MEGABYTE = "a".repeat(1024 * 1024);
const HOSTILE_TEXT = [
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "javascript:alert(1)",
  "</textarea><script>alert(1)</script>",
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '" OR ""="',
  "1; SELECT * FROM sessions",
  "\u0000",
  "a\u0000b",
  "\u0001\u0002\u0003\u0007\u0008\u000b\u000c\u001b\u007f",
  "\r\nSet-Cookie: x=1",
  "\ud800",
  "\udfff",
  "x\ud83d",
  "\u202e\u200b\ufeff",
  "𝕏🐕‍🦺",
  "{{7*7}}${7*7}",
  "../../etc/passwd",
  "//evil.example.com",
  "https://evil.example.com",
  "__proto__",
  "NaN",
  "Infinity",
  "-1",
  "1e309",
  "0x10",
  "99999999999999999999999",
  "[]",
  "{}",
  '{"$gt":""}',
  "null",
  "undefined",
  "true",
  " ",
  "",
  MEGABYTE,
  `<script>${MEGABYTE}</script>`,
];

const hostileText = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_TEXT) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
  {
    weight: 1,
    arbitrary: fc.string({
      unit: fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code)),
      maxLength: 10,
    }),
  },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double()).map(String) },
);

/** Raw bytes of a urlencoded body: broken percent escapes and invalid UTF-8 that no browser sends. */
const RAW_VALUES = ["%", "%zz", "%ED%A0%80", "%FF%FE", "%C0%AF", "%00", "a%2", "%E2%82"];

type Mutation =
  | { kind: "replace"; field: number; value: string }
  | { kind: "raw"; field: number; value: string }
  | { kind: "drop"; field: number }
  | { kind: "repeat"; field: number; value: string }
  | { kind: "rename"; field: number; suffix: string }
  | { kind: "extra"; key: string; value: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("replace" as const), field: fc.nat(), value: hostileText }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("raw" as const), field: fc.nat(), value: fc.constantFrom(...RAW_VALUES) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("drop" as const), field: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("repeat" as const), field: fc.nat(), value: hostileText }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("rename" as const),
      field: fc.nat(),
      suffix: fc.constantFrom("[0]", "[]", ".x", "[__proto__]"),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("extra" as const),
      key: fc.constantFrom(
        "__proto__",
        "constructor",
        "prototype",
        "intent",
        "id",
        "user_id",
        "role",
        "$where",
        "a[b][c]",
        "\u0000",
        "",
      ),
      value: hostileText,
    }),
  },
);

/** How the body goes: mostly as the page posts it, sometimes in a shape it never sends. */
type Body = "as-posted" | "urlencoded" | "multipart" | "json" | "text" | "empty" | "none";
const body: fc.Arbitrary<Body> = fc.oneof(
  { weight: 10, arbitrary: fc.constant("as-posted" as const) },
  { weight: 1, arbitrary: fc.constantFrom<Body>("urlencoded", "multipart", "json", "text", "empty", "none") },
);

export interface Submission {
  mutations: Mutation[];
  body: Body;
  /** The first field's value when the body is JSON: a number, an array, an object… */
  jsonValue: unknown;
}
export const submission: fc.Arbitrary<Submission> = fc.record({
  mutations: fc.array(mutation, { minLength: 1, maxLength: 3 }),
  body,
  jsonValue: fc.constantFrom<unknown>(1, -1, [], ["a", "b"], {}, { $gt: "" }, null, true, Number.MAX_VALUE),
});

/** Submissions every form gets besides the random ones: cases that once gave a 500 or stored a NUL. */
export const EXAMPLES: Submission[] = [
  { mutations: [{ kind: "replace", field: 0, value: "__proto__" }], body: "as-posted", jsonValue: 1 },
  ...[0, 1, 2].map((field): Submission => ({
    mutations: [{ kind: "replace", field, value: "a\u0000b" }],
    body: "as-posted",
    jsonValue: 1,
  })),
  { mutations: [{ kind: "replace", field: 1, value: MEGABYTE }], body: "as-posted", jsonValue: 1 },
  { mutations: [{ kind: "extra", key: "constructor", value: "x" }], body: "json", jsonValue: ["a", "b"] },
  { mutations: [{ kind: "drop", field: 0 }], body: "empty", jsonValue: 1 },
];

type Part = { key: string; value: string | File; raw?: boolean };

export function mutate(valid: Fields, mutations: Mutation[]): Part[] {
  let parts: Part[] = valid.map(([key, value]) => ({ key, value }));
  for (const change of mutations) {
    if (change.kind === "extra") {
      parts.push({ key: change.key, value: change.value });
      continue;
    }
    if (parts.length === 0) continue;
    const index = change.field % parts.length;
    const part = parts[index]!;
    if (change.kind === "replace") parts[index] = { key: part.key, value: change.value };
    else if (change.kind === "raw") parts[index] = { key: part.key, value: change.value, raw: true };
    else if (change.kind === "drop") parts = parts.filter((_, at) => at !== index);
    else if (change.kind === "repeat") parts.splice(index + 1, 0, { key: part.key, value: change.value });
    else parts[index] = { ...part, key: `${part.key}${change.suffix}` };
  }
  return parts;
}

/** What a browser sends for a lone surrogate: the replacement character. */
const wellFormed = (text: string) =>
  text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");

export function requestFor(
  url: string,
  parts: Part[],
  encoding: Encoding,
  shape: Body,
  jsonValue: unknown,
  headers: Record<string, string>,
): Request {
  const kind = shape === "as-posted" ? encoding : shape;
  const init: RequestInit & { headers: Record<string, string> } = { method: "POST", headers: { ...headers } };
  if (kind === "urlencoded") {
    init.headers["Content-Type"] = "application/x-www-form-urlencoded";
    init.body = parts
      .filter((part) => typeof part.value === "string")
      .map(
        (part) =>
          `${encodeURIComponent(wellFormed(part.key))}=${part.raw ? part.value : encodeURIComponent(wellFormed(part.value as string))}`,
      )
      .join("&");
  } else if (kind === "multipart") {
    const form = new FormData();
    for (const part of parts) form.append(part.key, part.value);
    init.body = form;
  } else if (kind === "json") {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(
      Object.fromEntries(
        parts.map((part, at) => [
          part.key,
          at === 0 ? jsonValue : typeof part.value === "string" ? part.value : "file",
        ]),
      ),
    );
  } else if (kind === "text") {
    init.headers["Content-Type"] = "text/plain";
    init.body = parts.map((part) => `${part.key}=${typeof part.value === "string" ? part.value : "file"}`).join("\n");
  } else if (kind === "empty") {
    init.headers["Content-Type"] =
      encoding === "multipart" ? "multipart/form-data; boundary=----x" : "application/x-www-form-urlencoded";
    init.body = "";
  }
  return new Request(`http://localhost${url}`, init);
}

interface Answer {
  status: number;
  /** A 4xx, or a redirect that carries an error toast. */
  refused: boolean;
  /** The error messages the answer carries (translation keys or text). */
  messages: string[];
}

const isDataWithInit = (value: unknown): value is { data: unknown; init?: { status?: number } } =>
  !!value && typeof value === "object" && "data" in value && "init" in value;

/** The messages under `error`, `formErrors` and `message` anywhere in an action's data. */
function messagesIn(value: unknown, underError = false): string[] {
  if (typeof value === "string") return underError && value ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((item) => messagesIn(item, underError));
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([key, item]) =>
      messagesIn(item, underError || key === "error" || key === "message" || key === "formErrors"),
    );
  }
  return [];
}

export async function answerOf(run: () => Promise<unknown>): Promise<Answer> {
  let result: unknown;
  try {
    result = await run();
  } catch (thrown) {
    if (!(thrown instanceof Response) && !isDataWithInit(thrown)) throw thrown;
    result = thrown;
  }
  if (result instanceof Response && result.status >= 300 && result.status < 400) {
    const cookies = result.headers
      .getSetCookie()
      .map((cookie) => cookie.split(";")[0])
      .join("; ");
    const { toast } = await takeToast(new Request("http://localhost/", { headers: { Cookie: cookies } }));
    const refused = toast?.type === "error";
    return {
      status: result.status,
      refused,
      messages: refused ? [toast.title, ...(toast.description ? [toast.description] : [])] : [],
    };
  }
  if (result instanceof Response) {
    const text = await result.text();
    let messages = text ? [text] : [];
    if (result.headers.get("Content-Type")?.includes("json")) messages = messagesIn(JSON.parse(text) as unknown);
    return { status: result.status, refused: result.status >= 400, messages };
  }
  if (isDataWithInit(result)) {
    const data = typeof result.data === "string" ? { message: result.data } : result.data;
    const status = result.init?.status ?? 200;
    return { status, refused: status >= 400, messages: messagesIn(data) };
  }
  return { status: 200, refused: false, messages: messagesIn(result) };
}

/** Every translation key of the English locale, as `namespace:key`. */
const LOCALE_DIR = path.resolve("locales/en");
const translationKeys = new Set(
  readdirSync(LOCALE_DIR).flatMap((file) => {
    const namespace = file.replace(/\.json$/, "");
    const flatten = (value: unknown, prefix: string): string[] =>
      value && typeof value === "object"
        ? Object.entries(value).flatMap(([key, item]) => flatten(item, prefix ? `${prefix}.${key}` : key))
        : [`${namespace}:${prefix}`];
    return flatten(JSON.parse(readFileSync(path.join(LOCALE_DIR, file), "utf8")), "");
  }),
);
export const looksLikeKey = (message: string) => /^([a-z]+:)?[a-zA-Z]+(\.[\w-]+)+$/.test(message);
export const isTranslated = (key: string) =>
  key.includes(":")
    ? translationKeys.has(key) ||
      translationKeys.has(key.replace(/_[a-z]+$/, "")) ||
      translationKeys.has(`${key}_other`)
    : [...translationKeys].some((known) => known.endsWith(`:${key}`));
