import { failureMessage, type PaymentFailureCode } from "./provider";

export type CardEntryReply =
  | { status: "ready"; clientSecret: string }
  | { status: "failed"; code: PaymentFailureCode }
  | { status: "refused"; error: string; httpStatus: 400 | 404 | 409 };

/** The JSON answer of a card-entry endpoint. Never cached: it carries a client secret, or an answer to one attempt. */
export function cardEntryReply(reply: CardEntryReply): Response {
  const headers = { "Cache-Control": "no-store" };
  if (reply.status === "ready") return Response.json({ clientSecret: reply.clientSecret }, { headers });
  if (reply.status === "failed") return Response.json({ error: failureMessage(reply.code) }, { status: 402, headers });
  return Response.json({ error: reply.error }, { status: reply.httpStatus, headers });
}

export function cardEntryAttempt(form: FormData): string | null {
  const attempt = String(form.get("attempt") ?? "");
  return /^[\w-]{8,64}$/.test(attempt) ? attempt : null;
}
