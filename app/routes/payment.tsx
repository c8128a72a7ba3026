import { useForm } from "@conform-to/react";
import { useSchemaValidation, type ConstraintOf } from "~/platform/forms";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { payForBooking, payWithSavedCard, type PaymentOutcome, bookingView } from "~/features/bookings/index.server";
import {
  CancellationTerms,
  cardSchema,
  PaymentSummary,
  expiryParts,
  bookingSummaryText,
  savedCardSchema,
  loadBookingSchemas,
  termsText,
} from "~/features/bookings";
import { failureMessage, CardEntryForm, SavedCardForm, STRIPE_CSP, stripeCardResultSchema } from "~/features/payments";
import { usableCardsOf } from "~/features/payments/index.server";
import { env } from "~/platform/env.server";
import { constraintOf, formDataOf } from "~/platform/forms.server";
import { languageOf } from "~/platform/i18n.server";
import { titleFrom } from "~/platform/page-title";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { FormError } from "~/platform/ui/field";
import { PageHeader } from "~/platform/ui/page-header";

export const handle = {
  i18n: ["bookings"],
  csp: STRIPE_CSP,
  title: titleFrom<typeof loader>((_, t) => t("bookings:payment.title")),
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const booking = await bookingView(user.id, params.bookingId ?? "");
  if (!booking || booking.as !== "owner") throw new Response("Not found", { status: 404 });
  if (!booking.can.pay) {
    if (booking.paymentStatus === "held" || booking.cardLabel)
      return redirectWithToast("/bookings", { type: "info", title: "bookings:payment.alreadyDone" });
    return redirectWithToast("/bookings", { type: "error", title: "bookings:payment.initFailed" });
  }
  const stripeKey = booking.paymentProvider === "stripe" ? (env.STRIPE_PUBLISHABLE_KEY ?? null) : null;
  const cards = await usableCardsOf(user.id, booking.paymentProvider);
  const language = await languageOf(request);
  const { cancellationPolicy: policy, startAt, money } = booking;
  return {
    booking: bookingSummaryText(booking, language),
    terms: policy
      ? termsText({ policy, startAt, totalCents: money.priceCents }, { language, timeZone: user.time_zone })
      : null,
    attempt: crypto.randomUUID(),
    stripeKey,
    cards,
    constraints: { cardSchema: constraintOf(cardSchema) },
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const bookingId = params.bookingId ?? "";
  const form = await formDataOf(request);
  if (form.get("intent") === "saved-card") {
    const parsed = savedCardSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success)
      return data(
        { savedCard: { error: parsed.error.issues[0]?.message ?? "bookings:payment.errors.savedCardMissing" } },
        { status: 400 },
      );
    const outcome = await payWithSavedCard(user, bookingId, parsed.data.cardId);
    if (outcome.status === "refused" && outcome.refusal === "cardNotFound")
      return data({ savedCard: { error: "bookings:payment.errors.savedCardMissing" } }, { status: 400 });
    if (outcome.status !== "failed") return settledAnswer(outcome, user.id, bookingId);
    return data({ savedCard: { error: failureMessage(outcome.code) } }, { status: 402 });
  }
  if (form.get("intent") === "stripe") {
    const parsed = stripeCardResultSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success)
      return data({ stripeErrors: ["bookings:payment.failed", failureMessage("processing_error")] }, { status: 400 });
    const { setupIntent, name, attempt } = parsed.data;
    const outcome = await payForBooking(user, bookingId, { kind: "token", token: setupIntent, name }, attempt);
    if (outcome.status !== "failed") return settledAnswer(outcome, user.id, bookingId);
    return data({ stripeErrors: ["bookings:payment.failed", failureMessage(outcome.code)] }, { status: 402 });
  }
  const submission = parseWithZod(form, { schema: cardSchema });
  if (submission.status !== "success")
    return data(submission.reply({ hideFields: ["number", "cvc"] }), { status: 400 });
  const { name, number, expiry, cvc, attempt } = submission.value;
  const outcome = await payForBooking(
    user,
    bookingId,
    { kind: "digits", name, number, cvc, ...expiryParts(expiry) },
    attempt,
  );
  if (outcome.status !== "failed") return settledAnswer(outcome, user.id, bookingId);
  return data(
    submission.reply({
      formErrors: ["bookings:payment.failed", failureMessage(outcome.code)],
      hideFields: ["number", "cvc"],
    }),
    { status: 402 },
  );
}

async function settledAnswer(
  outcome: Exclude<PaymentOutcome, { status: "failed" }>,
  userId: string,
  bookingId: string,
) {
  if (outcome.status === "held")
    return redirectWithToast("/bookings", { type: "success", title: "bookings:payment.authorised" });
  if (outcome.status === "card-saved") {
    const charged = (await bookingView(userId, bookingId))?.paymentMode === "charge";
    return redirectWithToast("/bookings", {
      type: "success",
      title: "bookings:payment.cardSaved",
      description: charged ? "bookings:stay.cardSavedBody" : "bookings:payment.cardSavedBody",
    });
  }
  if (outcome.refusal === "notFound") throw new Response("Not found", { status: 404 });
  return redirectWithToast("/bookings", { type: "error", title: "bookings:payment.initFailed" });
}

/** A refused card is a new attempt: the page gets a fresh attempt key even though the answer was an error. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod === "POST" ? true : defaultShouldRevalidate;

export default function Payment() {
  const { t } = useTranslation("bookings");
  const { booking, attempt, stripeKey, cards, terms } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const lastResult =
    actionData && !("stripeErrors" in actionData) && !("savedCard" in actionData) ? actionData : undefined;
  const { constraints } = useLoaderData<typeof loader>();
  const [form, fields] = useForm({
    id: "payment",
    ...useSchemaValidation("payment", () => loadBookingSchemas().then((schemas) => schemas.cardSchema)),
    lastResult,
    constraint: constraints.cardSchema as ConstraintOf<typeof cardSchema>,
  });
  const { total } = booking.summary;
  const heldNote = booking.paymentMode === "charge" ? t("stay.chargeNote", { amount: total }) : t("payment.heldNote");
  return (
    <>
      <PageHeader title={t("payment.title")} backTo="/bookings" />
      <div className="space-y-6 px-4 pb-8">
        <PaymentSummary booking={booking} />
        {terms ? <CancellationTerms terms={terms} /> : null}
        {cards.length > 0 ? (
          <>
            <SavedCardForm
              cards={cards}
              submitLabel={t("payment.payWithSaved", { amount: total })}
              error={actionData && "savedCard" in actionData ? actionData.savedCard.error : null}
            />
            <h2 className="font-semibold">{t("payment.newCardTitle")}</h2>
          </>
        ) : null}
        <CardEntryForm
          stripe={
            booking.paymentProvider === "stripe"
              ? {
                  publishableKey: stripeKey,
                  entryUrl: `/payment/${booking.id}/card-entry`,
                  payLabel: t("payment.pay", { amount: total }),
                  serverErrors: actionData && "stripeErrors" in actionData ? actionData.stripeErrors : null,
                  pathPrefix: "/payment/",
                  note: heldNote,
                }
              : null
          }
          form={form}
          fields={fields}
          attempt={attempt}
          labels="bookings:payment"
          submitLabel={t("payment.pay", { amount: total })}
          note={heldNote}
          errors={<FormError form={form} />}
        />
      </div>
    </>
  );
}
