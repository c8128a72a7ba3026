import { randomUUID } from "node:crypto";
import type { Forms } from "./form";

/** Card payments, subscriptions, Stripe's webhook and the operator console. */
export const PAYMENT_AND_OPERATOR_FORMS: Forms = {
  "routes/webhooks-stripe.ts": [
    {
      name: "stripe webhook",
      who: "anonymous",
      url: () => "/webhooks/stripe",
      fields: () => [
        ["id", "evt_1"],
        ["type", "payment_intent.succeeded"],
      ],
      headers: () => ({ "stripe-signature": `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}` }),
    },
  ],
  "routes/admin-person.tsx": [
    {
      name: "suspend",
      who: "admin",
      url: (w) => `/admin/people/${w.sitter.id}`,
      params: (w) => ({ userId: w.sitter.id }),
      fields: () => [
        ["intent", "suspend"],
        ["reason", "Asked owners to pay outside the app"],
      ],
    },
  ],
  "routes/admin-reports.tsx": [
    {
      name: "report decision",
      who: "admin",
      url: () => "/admin/reports",
      fields: (w) => [
        ["intent", "dismiss"],
        ["reportId", w.reportId],
        ["reason", "Nothing wrong"],
      ],
    },
  ],
  // The booking is requested, not confirmed: every visit action is refused, with its message, changing nothing.
  "routes/admin-dispute.tsx": [
    {
      name: "settle a dispute",
      who: "admin",
      url: (w) => `/admin/disputes/${w.disputeId}`,
      params: (w) => ({ disputeId: w.disputeId }),
      fields: () => [
        ["outcome", "partial"],
        ["amount", "14.40"],
        ["note", "Shorter than booked"],
      ],
    },
  ],
  "routes/admin-booking.tsx": [
    {
      name: "operator refund",
      who: "admin",
      url: (w) => `/admin/bookings/${w.completedBookingId}`,
      params: (w) => ({ bookingId: w.completedBookingId }),
      fields: () => [
        ["amount", "5"],
        ["note", "Goodwill"],
      ],
    },
  ],
  "routes/payment.tsx": [
    {
      name: "booking payment",
      who: "owner",
      url: (w) => `/payment/${w.unpaidBookingId}`,
      params: (w) => ({ bookingId: w.unpaidBookingId }),
      fields: () => [
        ["attempt", randomUUID()],
        ["name", "Ana"],
        ["number", "4242 4242 4242 4242"],
        ["expiry", "12/30"],
        ["cvc", "123"],
      ],
    },
    {
      name: "booking payment with a saved card",
      who: "owner",
      url: (w) => `/payment/${w.unpaidBookingId}`,
      params: (w) => ({ bookingId: w.unpaidBookingId }),
      fields: (w) => [
        ["intent", "saved-card"],
        ["cardId", w.paymentMethodId],
      ],
    },
  ],
  "routes/payment-card-entry.ts": [
    {
      name: "card entry",
      who: "owner",
      url: (w) => `/payment/${w.unpaidBookingId}/card-entry`,
      params: (w) => ({ bookingId: w.unpaidBookingId }),
      fields: () => [["attempt", randomUUID()]],
    },
  ],
  "routes/subscription-card-entry.ts": [
    {
      name: "subscription card entry",
      who: "owner",
      url: () => "/subscription/card-entry",
      fields: () => [["attempt", randomUUID()]],
    },
  ],
  "routes/subscription-checkout.tsx": [
    {
      name: "subscription checkout",
      who: "sitter",
      url: () => "/subscription/checkout/monthly",
      params: () => ({ planId: "monthly" }),
      fields: (w) => [
        ["attempt", randomUUID()],
        ["name", "Ana"],
        ["email", w.sitter.email],
        ["number", "4242424242424242"],
        ["expiry", "12/30"],
        ["cvc", "123"],
      ],
    },
  ],
  "routes/subscription-card-new.tsx": [
    {
      name: "add card",
      who: "owner",
      url: () => "/subscription/cards/new",
      fields: () => [
        ["attempt", randomUUID()],
        ["name", "Ana"],
        ["number", "4242424242424242"],
        ["expiry", "12/30"],
        ["cvc", "123"],
      ],
    },
  ],
  "routes/subscription.tsx": [
    {
      name: "subscription cancel",
      who: "owner",
      url: () => "/subscription",
      fields: (w) => [
        ["intent", "cancel"],
        ["subscriptionId", w.subscriptionId],
      ],
    },
    {
      name: "default card",
      who: "owner",
      url: () => "/subscription",
      fields: (w) => [
        ["intent", "set-default"],
        ["methodId", w.paymentMethodId],
      ],
    },
  ],
};
