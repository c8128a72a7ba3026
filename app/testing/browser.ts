import { randomUUID } from "node:crypto";
import { honeypot } from "~/platform/honeypot.server";
import { signupInput } from "./people";

/** Posting forms to the real route actions as a browser would: the honeypot fields the page renders, the cookies it keeps. */

export const TEST_ORIGIN = "http://localhost:3000";

/** The hidden fields every public form renders (HoneypotInputs). */
export function honeypotFields(): Record<string, string> {
  const props = honeypot.getInputProps();
  return {
    [props.nameFieldName]: "",
    ...(props.validFromFieldName ? { [props.validFromFieldName]: props.encryptedValidFrom } : {}),
  };
}

export const signupFields = (email: string, name = "Nina Nueva"): Record<string, string> => ({
  intent: "signup",
  ...signupInput({ email, name }),
  ...honeypotFields(),
});

/** A browser's cookie jar: what it sends, and what it keeps from each answer. */
export class Browser {
  private cookies = new Map<string, string>();

  header(): Record<string, string> {
    return this.cookies.size ? { Cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ") } : {};
  }

  keep(setCookies: string[]): void {
    for (const setCookie of setCookies) {
      const [pair] = setCookie.split(";");
      const at = pair!.indexOf("=");
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      if (value === "" || /max-age=0\b/i.test(setCookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get(path: string, headers: Record<string, string> = {}): Request {
    return new Request(`${TEST_ORIGIN}${path}`, { headers: { ...this.header(), ...headers } });
  }

  post(
    path: string,
    fields: Record<string, string>,
    { origin = TEST_ORIGIN, headers = {} }: { origin?: string; headers?: Record<string, string> } = {},
  ): Request {
    return new Request(`${origin}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", ...this.header(), ...headers },
      body: new URLSearchParams(fields),
    });
  }
}

export interface Answer {
  status: number;
  location: string | null;
  /** Every message of the reply: form errors and field errors, as translation keys. */
  errors: string[];
  fieldErrors: Record<string, string[]>;
  setCookies: string[];
}

type DataAnswer = {
  data?: { reply?: { error?: Record<string, string[] | null> } } & { error?: Record<string, string[] | null> };
  init?: ResponseInit;
};

/** What a route action answered, whether a Response (redirects) or `data()` with its init. */
export async function answerOf(run: Promise<unknown>, browser?: Browser): Promise<Answer> {
  let result: unknown;
  try {
    result = await run;
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    result = thrown;
  }
  if (result instanceof Response) {
    const setCookies = result.headers.getSetCookie();
    browser?.keep(setCookies);
    return { status: result.status, location: result.headers.get("Location"), errors: [], fieldErrors: {}, setCookies };
  }
  const { data, init } = result as DataAnswer;
  const reply = data?.reply ?? data;
  const fieldErrors = Object.fromEntries(
    Object.entries(reply?.error ?? {}).filter((entry): entry is [string, string[]] => Array.isArray(entry[1])),
  );
  const setCookies = new Headers(init?.headers).getSetCookie();
  browser?.keep(setCookies);
  return {
    status: init?.status ?? 200,
    location: null,
    errors: Object.values(fieldErrors).flat(),
    fieldErrors,
    setCookies,
  };
}

/** The load context of one request; each from its own client address unless one is named (rate limits count per address). */
export const context = (clientAddress = `2001:db8::${randomUUID().slice(0, 4)}`) => ({ clientAddress, cspNonce: "" });
