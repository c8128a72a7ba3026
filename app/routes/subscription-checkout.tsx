import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { paymentProvider } from "~/features/payments/payments.server";
import { STRIPE_CSP, StripeCardEntry } from "~/features/payments/stripe-card-entry";
import { stripeCardResultSchema, stripeConfirmedSchema } from "~/features/payments/stripe-card-result";
import { CardFields, PaymentErrorBox } from "~/features/subscriptions/card-fields";
import { checkoutKind } from "~/features/subscriptions/machine";
import { checkoutSchema, expiryParts } from "~/features/subscriptions/schema";
import { checkout } from "~/features/subscriptions/checkout.server";
import { finishCheckout } from "~/features/subscriptions/processor.server";
import { findPlan, liveSubscriptionOf, type CheckoutOutcome } from "~/features/subscriptions/subscriptions.server";
import { env } from "~/platform/env.server";
import { longDay } from "~/platform/format";
import { formDataOf } from "~/platform/forms.server";
import { languageOf } from "~/platform/i18n.server";
import { formatMoney } from "~/platform/money";
import { titleFrom } from "~/platform/page-title";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { TextField } from "~/platform/ui/field";
import { PageHeader } from "~/platform/ui/page-header";
import { SubmitButton } from "~/platform/ui/submit-button";

/** With Stripe the card is typed into Stripe's field (its texts are the booking payment's), so the page allows Stripe's origins. */
export const handle = {
  i18n: ["subscription", "bookings"],
  csp: STRIPE_CSP,
  title: titleFrom<typeof loader>(({ plan, switchFrom }, t) =>
    t(switchFrom ? "subscription:checkout.switchTitle" : "subscription:checkout.title", { plan: t(`subscription:plans.${plan.id}`, { defaultValue: plan.name }) }),
  ),
};

const refusalToast = {
  samePlan: "subscription:errors.samePlan",
  pastDue: "subscription:errors.pastDue",
  chargePending: "subscription:errors.chargePending",
  switchAtPeriodEnd: "subscription:errors.switchAtPeriodEnd",
} as const;

/** The payment form of one plan: its own page, so choosing a plan works without JavaScript. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const plan = await findPlan(params.planId ?? "");
  if (!plan) throw data("Not found", { status: 404 });
  const current = await liveSubscriptionOf(user.id);
  const kind = checkoutKind(current, plan.id);
  if (!kind.ok) return redirectWithToast("/subscription", { type: "error", title: refusalToast[kind.refusal] });
  const billed = Boolean(paymentProvider().billing);
  if (billed && kind.kind === "switch") return redirectWithToast("/subscription", { type: "error", title: refusalToast.switchAtPeriodEnd });
  const currentPlan = kind.kind === "switch" && current ? await findPlan(current.plan_id) : undefined;
  // The price and the date in the reader's language, written here (see ~/platform/format).
  const language = await languageOf(request);
  return {
    plan: { id: plan.id, name: plan.name, price: formatMoney(plan.price_cents, language), interval: plan.interval },
    switchFrom: kind.kind === "switch" && current ? { planId: current.plan_id, planName: currentPlan?.name ?? current.plan_id, periodEnd: longDay(language, user.time_zone)(current.current_period_end) } : null,
    name: user.name,
    email: user.email,
    attempt: crypto.randomUUID(),
    /** Stripe's card field instead of ours, when Stripe bills the subscription. */
    stripe: billed ? { publishableKey: env.STRIPE_PUBLISHABLE_KEY ?? null } : null,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const form = await formDataOf(request);
  const intent = form.get("intent");
  if (intent === "stripe" || intent === "stripe-confirmed") return stripeAction(user, params.planId ?? "", form, request);
  const submission = parseWithZod(form, { schema: checkoutSchema });
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["number", "cvc"] }), { status: 400 });
  const { name, email, number, expiry, cvc, attempt } = submission.value;
  const outcome = await checkout({ id: user.id, email }, params.planId ?? "", { kind: "digits", name, number, cvc, ...expiryParts(expiry) }, attempt);
  const settled = await settledAnswer(outcome, user, request);
  if (settled) return settled;
  if (outcome.status === "refused" && outcome.reason === "stale") return data(submission.reply({ formErrors: ["subscription:errors.stale"], hideFields: ["number", "cvc"] }), { status: 409 });
  const code = outcome.status === "failed" ? outcome.code : "processing_error";
  return data(submission.reply({ formErrors: [`subscription:paymentErrors.${code}`], hideFields: ["number", "cvc"] }), { status: 402 });
}

/**
 * Stripe's card form posts the SetupIntent Stripe.js confirmed (intent "stripe"), or, after the
 * payer confirmed the first payment in Stripe's frame, the subscription it was for ("stripe-confirmed").
 */
async function stripeAction(user: { id: string; email: string; time_zone: string }, planId: string, form: FormData, request: Request) {
  const failed = (code: string, status: number) => data({ stripeErrors: ["bookings:payment.failed", `subscription:paymentErrors.${code}`] }, { status });
  let outcome: CheckoutOutcome;
  if (form.get("intent") === "stripe") {
    const parsed = stripeCardResultSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) return failed("processing_error", 400);
    outcome = await checkout(user, planId, { kind: "token", token: parsed.data.setupIntent, name: parsed.data.name }, parsed.data.attempt);
  } else {
    const parsed = stripeConfirmedSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) return failed("processing_error", 400);
    outcome = await finishCheckout(user.id, parsed.data.subscriptionId);
  }
  const settled = await settledAnswer(outcome, user, request);
  if (settled) return settled;
  if (outcome.status === "confirm") return data({ stripeConfirm: { clientSecret: outcome.clientSecret, subscriptionId: outcome.subscriptionId } });
  if (outcome.status === "refused") return data({ stripeErrors: ["subscription:errors.stale"] }, { status: 409 });
  return failed(outcome.status === "failed" ? outcome.code : "processing_error", 402);
}

/** The answers both forms share: a redirect with a toast once the checkout is done or refused for good (null otherwise). */
async function settledAnswer(outcome: CheckoutOutcome, user: { time_zone: string }, request: Request) {
  const day = longDay(await languageOf(request), user.time_zone);
  switch (outcome.status) {
    case "active":
      return redirectWithToast("/subscription?tab=mine", { type: "success", title: "subscription:toasts.subscribed", description: "subscription:toasts.subscribedBody", values: { date: day(outcome.subscription.current_period_end) } });
    case "switched":
      return redirectWithToast("/subscription?tab=mine", { type: "success", title: "subscription:toasts.switched", description: "subscription:toasts.switchedBody", values: { date: day(outcome.subscription.current_period_end) } });
    case "refused":
      if (outcome.reason === "notFound") throw data("Not found", { status: 404 });
      if (outcome.reason === "stale") return null;
      return redirectWithToast("/subscription", { type: "error", title: refusalToast[outcome.reason] });
    default:
      return null;
  }
}

/** A refused card is a new attempt: the page gets a fresh attempt key even though the answer was an error. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) => (formMethod === "POST" ? true : defaultShouldRevalidate);

export default function SubscriptionCheckout() {
  const { t } = useTranslation("subscription");
  const { plan, switchFrom, name, email, attempt, stripe } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const lastResult = actionData && !("stripeErrors" in actionData) && !("stripeConfirm" in actionData) ? actionData : undefined;
  const [form, fields] = useForm({
    id: "subscription-checkout",
    lastResult,
    defaultValue: { name, email },
    constraint: getZodConstraint(checkoutSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: checkoutSchema }),
    shouldRevalidate: "onInput",
  });
  const planName = t(`plans.${plan.id}`, { defaultValue: plan.name });
  const { price } = plan;
  const interval = t(`interval.${plan.interval}`);
  return (
    <>
      <PageHeader title={t(switchFrom ? "checkout.switchTitle" : "checkout.title", { plan: planName })} backTo="/subscription" />
      <div className="space-y-5 px-4 pb-8">
        <Link to="/subscription" className="link inline-block">
          {t("checkout.back")}
        </Link>
        <section aria-labelledby="plan-summary" className="card space-y-1">
          <h2 id="plan-summary" className="text-lg font-bold">
            {planName}
          </h2>
          <p className="text-xl font-extrabold">{t("checkout.summary", { price, interval })}</p>
          <p className="text-sm text-stone-700">
            {switchFrom
              ? t("checkout.switchNote", { current: t(`plans.${switchFrom.planId}`, { defaultValue: switchFrom.planName }), date: switchFrom.periodEnd, plan: planName, price })
              : t("checkout.renewsNote", { interval })}
          </p>
        </section>
        {stripe ? (
          <StripeCardEntry
            publishableKey={stripe.publishableKey}
            entryUrl={`/subscription/card-entry?plan=${encodeURIComponent(plan.id)}`}
            attempt={attempt}
            payLabel={t("checkout.pay", { price })}
            serverErrors={actionData && "stripeErrors" in actionData ? actionData.stripeErrors : null}
            paymentToConfirm={actionData && "stripeConfirm" in actionData ? actionData.stripeConfirm : null}
            pathPrefix="/subscription/checkout/"
          />
        ) : (
        <Form method="post" {...getFormProps(form)} noValidate className="space-y-4">
          <PaymentErrorBox form={form} />
          <input type="hidden" name="attempt" value={attempt} />
          <TextField meta={fields.name} label={t("checkout.name")} autoComplete="cc-name" />
          <TextField meta={fields.email} label={t("checkout.email")} type="email" autoComplete="email" />
          <CardFields number={fields.number} expiry={fields.expiry} cvc={fields.cvc} />
          <SubmitButton className="w-full">{switchFrom ? t("checkout.confirmSwitch") : t("checkout.pay", { price })}</SubmitButton>
          <p className="text-center text-sm text-stone-700">{t("checkout.testCards")}</p>
        </Form>
        )}
      </div>
    </>
  );
}
