import type { ActionFunctionArgs } from "@remix-run/node";
import { bookingStripeEvents } from "~/features/bookings/index.server";
import { connectStripeEvents, receiveStripeWebhook } from "~/features/payments/index.server";
import { subscriptionStripeEvents } from "~/features/subscriptions/index.server";
import { readBody } from "~/platform/forms.server";
import { STRIPE_WEBHOOK_BODY_MAX_BYTES, type RequestBodyHandle } from "~/platform/request-limits";

export const handle: RequestBodyHandle = { bodyMaxBytes: STRIPE_WEBHOOK_BODY_MAX_BYTES };

const handlers = { ...bookingStripeEvents, ...subscriptionStripeEvents, ...connectStripeEvents };

/** The signature covers the exact bytes sent, so the body is read as text, untouched. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return new Response("Method not allowed", { status: 405, headers: { Allow: "POST" } });
  const body = new TextDecoder().decode(await readBody(request, STRIPE_WEBHOOK_BODY_MAX_BYTES));
  const answer = await receiveStripeWebhook(body, request.headers.get("stripe-signature"), handlers);
  return new Response(answer.message, {
    status: answer.status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

export function loader() {
  return new Response("Method not allowed", { status: 405, headers: { Allow: "POST" } });
}
