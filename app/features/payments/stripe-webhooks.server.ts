import Stripe from "stripe";
import { db } from "~/platform/db.server";
import { env } from "~/platform/env.server";
import { nowIso } from "~/platform/clock.server";
import { serialized } from "~/platform/lock.server";
import { logger } from "~/platform/log.server";

/**
 * Checked against the signature, stored by id and processed once; events may come in any order
 * and more than once, so handlers re-check. A failure answers 500, so Stripe delivers it again.
 */

export type WebhookAnswer = { status: 200 | 400 | 500; message: string };

export type WebhookOutcome = "applied" | `ignored${string}` | "unhandled";

export type WebhookHandler = (event: Stripe.Event) => Promise<WebhookOutcome>;

export type WebhookHandlers = Partial<Record<Stripe.Event.Type, WebhookHandler>>;

export const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === "string" ? value : (value?.id ?? null);

/** `rawBody` is the request body exactly as received: the signature covers those bytes. */
export async function receiveStripeWebhook(
  rawBody: string,
  signature: string | null,
  handlers: WebhookHandlers,
  options: { secret?: string; toleranceSeconds?: number } = {},
): Promise<WebhookAnswer> {
  const secret = options.secret ?? env.STRIPE_WEBHOOK_SECRET;
  if (!secret) return { status: 400, message: "Stripe webhooks are not configured" };
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(rawBody, signature ?? "", secret, options.toleranceSeconds);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError)
      return { status: 400, message: "Invalid signature" };
    return { status: 400, message: "Invalid payload" };
  }

  await db
    .insertInto("stripe_events")
    .values({ id: event.id, type: event.type, payload: rawBody, received_at: nowIso() })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
  // Deliveries of one event at the same moment wait for each other, so it is processed once.
  return serialized(`stripe-event:${event.id}`, async (): Promise<WebhookAnswer> => {
    const stored = await db
      .selectFrom("stripe_events")
      .select("processed_at")
      .where("id", "=", event.id)
      .executeTakeFirstOrThrow();
    if (stored.processed_at) return { status: 200, message: "Already processed" };
    const handler = handlers[event.type];
    let outcome: WebhookOutcome;
    try {
      outcome = handler ? await handler(event) : "unhandled";
    } catch (error) {
      logger.error(
        { event: "stripe.event-failed", stripeEvent: event.id, type: event.type, err: error },
        "Stripe event failed",
      );
      return { status: 500, message: "Processing failed" };
    }
    await db.updateTable("stripe_events").set({ processed_at: nowIso(), outcome }).where("id", "=", event.id).execute();
    return { status: 200, message: outcome };
  });
}
