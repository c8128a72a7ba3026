import { AsyncLocalStorage } from "node:async_hooks";
import { createRequire } from "node:module";
import pino, { type DestinationStream, type Logger, type LoggerOptions } from "pino";
import { env } from "./env.server";

/** What every line a request causes carries: its id (also sent as X-Request-Id) and, once known, who asked. */
export interface RequestLog {
  requestId: string;
  personId?: string;
}

const requestLogs = new AsyncLocalStorage<RequestLog>();

/** Runs `work` with `log` as the current request's, so every line logged inside carries its id. */
export function runWithRequestLog<T>(log: RequestLog | undefined, work: () => T): T {
  return log ? requestLogs.run(log, work) : work();
}

export const currentRequestLog = (): RequestLog | undefined => requestLogs.getStore();

/** The signed-in person of the current request, for its log lines (an id, never a name or an address). */
export function notePerson(personId: string): void {
  const log = requestLogs.getStore();
  if (log) log.personId = personId;
}

// Field names that never reach a log line, wherever they appear (at the top or one level down): secrets,
// card data, what people write to each other, email addresses and positions.
const SECRET_FIELDS = [
  "password",
  "newPassword",
  "currentPassword",
  "token",
  "secret",
  "authorization",
  "cookie",
  "set-cookie",
  "card",
  "cardNumber",
  "cvc",
  "email",
  "to",
  "to_address",
  "text",
  "body",
  "message_text",
  "latitude",
  "longitude",
  "lat",
  "lng",
  "position",
];
export const REDACTED_PATHS = [
  ...SECRET_FIELDS.map((field) => (/^[A-Za-z_]\w*$/.test(field) ? field : `["${field}"]`)),
  ...SECRET_FIELDS.map((field) => (/^[A-Za-z_]\w*$/.test(field) ? `*.${field}` : `*["${field}"]`)),
  "*.headers.authorization",
  "*.headers.cookie",
];

// A message or an error may quote an address (an SMTP refusal, a provider's answer): it is masked there too.
const EMAIL_ADDRESS = /[\w.!#$%&'*+/=?^`{|}~-]+@[\w-]+(?:\.[\w-]+)+/g;
export const maskEmails = (text: string): string => text.replace(EMAIL_ADDRESS, "[email]");

function serializeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: maskEmails(String(error)) };
  const code = (error as { code?: unknown }).code;
  return {
    type: error.name,
    message: maskEmails(error.message),
    ...(code !== undefined ? { code: String(code) } : {}),
    ...(error.stack ? { stack: maskEmails(error.stack) } : {}),
  };
}

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    serializers: { err: serializeError, error: serializeError },
    formatters: { level: (label) => ({ level: label }) },
    mixin() {
      const log = requestLogs.getStore();
      if (!log) return {};
      return log.personId ? { reqId: log.requestId, personId: log.personId } : { reqId: log.requestId };
    },
    hooks: {
      logMethod(args, method) {
        // Strings (the message and its format arguments) have their addresses masked; an Error given
        // first is logged under `err`, so it goes through the serializer above.
        const masked = args.map((arg) => (typeof arg === "string" ? maskEmails(arg) : arg)) as Parameters<
          typeof method
        >;
        const first: unknown = masked[0];
        if (first instanceof Error) {
          masked[0] = { err: first } as never;
          if (masked.length === 1) masked.push(maskEmails(first.message) as never);
        } else if (first && typeof first === "object" && !Array.isArray(first))
          masked[0] = Object.fromEntries(
            Object.entries(first).map(([key, value]) => [key, typeof value === "string" ? maskEmails(value) : value]),
          ) as never;
        return method.apply(this, masked);
      },
    },
  };
}

/** A logger writing to `destination` (tests read what it wrote). */
export function createLogger(destination: DestinationStream, level = "info"): Logger {
  return pino(loggerOptions(level), destination);
}

function prettyInDevelopment(): DestinationStream | undefined {
  if (env.NODE_ENV !== "development") return undefined;
  try {
    // A development dependency: absent from a production install, where lines stay JSON.
    createRequire(import.meta.url).resolve("pino-pretty");
  } catch {
    return undefined;
  }
  return pino.transport({
    target: "pino-pretty",
    options: { translateTime: "HH:MM:ss.l", ignore: "pid,hostname", singleLine: true },
  }) as DestinationStream;
}

/** One JSON line per event on standard output (readable lines in development); LOG_LEVEL sets how much. */
export const logger: Logger = pino(loggerOptions(env.LOG_LEVEL), prettyInDevelopment() ?? pino.destination(1));
