import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type Stripe from "stripe";
import { createStripeClient } from "~/features/payments/index.server";

/**
 * A small HTTP server on 127.0.0.1 that answers like the Stripe API for the endpoints
 * the app uses, and records every request. Like Stripe, it answers a repeated Idempotency-Key
 * with the first answer (a scripted reply marked `transient` is not kept: it failed before the
 * endpoint ran). Tests script failures with `fail(route, reply)`, or `"hang"` for a timeout.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  idempotencyKey: string | undefined;
  stripeAccount: string | undefined;
}

/** `"hang"`: no answer, the request never reached the endpoint; `"lost"`: the endpoint ran (and keeps its answer for the key), but the answer never comes back. */
export type Reply = { status: number; body: unknown; transient?: boolean } | "hang" | "lost";

export const SECRET_KEY = "sk_test_fake";

export const cardError = (code: string, declineCode?: string, extra: Record<string, unknown> = {}) => ({
  status: 402,
  body: {
    error: {
      type: "card_error",
      code,
      ...(declineCode ? { decline_code: declineCode } : {}),
      message: `Your card was declined (${code}).`,
      ...extra,
    },
  },
});

export const serverError = (transient = false) => ({
  status: 500,
  transient,
  body: { error: { type: "api_error", message: "An unknown error occurred" } },
});

export class FakeStripe {
  requests: RecordedRequest[] = [];
  private server: Server;
  private scripted = new Map<string, Reply[]>();
  private answers = new Map<string, { status: number; body: unknown }>();
  private hanging = new Set<ServerResponse>();
  private counter = 0;
  /** Objects the fake keeps, as Stripe would: setup intents and payment intents by id. */
  setupIntents = new Map<string, Record<string, unknown>>();
  paymentIntents = new Map<string, Record<string, unknown>>();
  accounts = new Map<string, Record<string, unknown>>();
  /** Connect: transfers to connected accounts, with what was reversed of each. */
  transfers = new Map<string, Record<string, unknown>>();
  /** Billing: customers, cards, prices, subscriptions and their invoices. */
  customers = new Map<string, Record<string, unknown>>();
  paymentMethods = new Map<string, Record<string, unknown>>();
  prices = new Map<string, Record<string, unknown>>();
  subscriptions = new Map<string, Record<string, unknown>>();
  invoices = new Map<string, Record<string, unknown>>();

  constructor() {
    this.server = createServer((request, response) => void this.handle(request, response));
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return this;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** The real SDK, pointed here. */
  client(options: { maxNetworkRetries?: number; timeoutMs?: number } = {}): Stripe {
    return createStripeClient({
      secretKey: SECRET_KEY,
      host: "127.0.0.1",
      port: this.port,
      protocol: "http",
      maxNetworkRetries: options.maxNetworkRetries ?? 0,
      timeoutMs: options.timeoutMs ?? 2_000,
    });
  }

  /** The next requests to `route` ("POST /v1/payment_intents") get these replies, in order. */
  fail(route: string, ...replies: Reply[]) {
    this.scripted.set(route, [...(this.scripted.get(route) ?? []), ...replies]);
  }

  /** Requests other than the SDK's bookkeeping, as "METHOD /path". */
  routes(): string[] {
    return this.requests.map((request) => `${request.method} ${request.path}`);
  }

  clear() {
    this.requests = [];
    this.scripted.clear();
  }

  async close() {
    for (const response of this.hanging) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private nextId(prefix: string) {
    this.counter += 1;
    return `${prefix}_${String(this.counter).padStart(6, "0")}`;
  }

  private async handle(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const form = new URLSearchParams([
      ...url.searchParams.entries(),
      ...new URLSearchParams(Buffer.concat(chunks).toString("utf8")).entries(),
    ]);
    const recorded: RecordedRequest = {
      method: request.method ?? "GET",
      path: url.pathname,
      params: Object.fromEntries(form.entries()),
      idempotencyKey: request.headers["idempotency-key"] as string | undefined,
      stripeAccount: request.headers["stripe-account"] as string | undefined,
    };
    this.requests.push(recorded);
    const route = `${recorded.method} ${recorded.path}`;
    const answerKey = recorded.idempotencyKey ? `${route} ${recorded.idempotencyKey}` : null;
    const known = answerKey ? this.answers.get(answerKey) : undefined;
    if (known) return this.send(response, known, true);

    const scripted = this.scripted.get(route)?.shift();
    if (scripted === "hang" || scripted === "lost") {
      if (scripted === "lost" && answerKey) this.answers.set(answerKey, this.answer(recorded));
      this.hanging.add(response);
      return;
    }
    const reply = scripted ?? this.answer(recorded);
    if (answerKey && !scripted?.transient) this.answers.set(answerKey, { status: reply.status, body: reply.body });
    this.send(response, reply, false);
  }

  private send(response: ServerResponse, reply: { status: number; body: unknown }, replayed: boolean) {
    response.writeHead(reply.status, {
      "Content-Type": "application/json",
      "Request-Id": this.nextId("req"),
      ...(replayed ? { "Idempotent-Replayed": "true" } : {}),
      // The SDK must not retry on its own unless a test asks it to (maxNetworkRetries).
      "Stripe-Should-Retry": reply.status >= 500 ? "true" : "false",
    });
    response.end(JSON.stringify(reply.body));
  }

  /** The default, successful answers. */
  private answer({ method, path, params }: RecordedRequest): { status: number; body: unknown } {
    const created = Math.floor(Date.now() / 1000);
    const ok = (body: Record<string, unknown>) => ({ status: 200, body });
    const notFound = {
      status: 404,
      body: { error: { type: "invalid_request_error", code: "resource_missing", message: "No such object" } },
    };
    const invalid = (message: string) => ({
      status: 400,
      body: { error: { type: "invalid_request_error", message } },
    });
    let match: RegExpMatchArray | null;

    if (method === "POST" && path === "/v1/customers") {
      const customer = {
        id: this.nextId("cus"),
        object: "customer",
        email: params.email,
        name: params.name,
        metadata: metadataOf(params),
        invoice_settings: { default_payment_method: null },
        created,
      };
      this.customers.set(customer.id, customer);
      return ok(customer);
    }
    const billing = this.answerBilling(method, path, params, created);
    if (billing) return billing;
    if (method === "POST" && path === "/v1/setup_intents") {
      const id = this.nextId("seti");
      const intent = {
        id,
        object: "setup_intent",
        client_secret: `${id}_secret_fake`,
        customer: params.customer,
        usage: params.usage,
        status: "requires_payment_method",
        payment_method: null,
        metadata: metadataOf(params),
        created,
      };
      this.setupIntents.set(id, intent);
      return ok(intent);
    }
    if (method === "GET" && (match = path.match(/^\/v1\/setup_intents\/([^/]+)$/))) {
      const intent = this.setupIntents.get(match[1]!);
      return intent ? ok(intent) : notFound;
    }
    if (method === "POST" && (match = path.match(/^\/v1\/payment_methods\/([^/]+)\/attach$/)))
      return ok(this.keepMethod(paymentMethod(match[1]!, params.customer!)));
    if (method === "GET" && (match = path.match(/^\/v1\/payment_methods\/([^/]+)$/))) {
      const card = this.paymentMethods.get(match[1]!);
      return card ? ok(card) : notFound;
    }
    if (method === "POST" && path === "/v1/payment_intents") {
      const id = this.nextId("pi");
      const intent = {
        id,
        object: "payment_intent",
        amount: Number(params.amount),
        amount_capturable: Number(params.amount),
        currency: params.currency,
        customer: params.customer,
        payment_method: params.payment_method,
        capture_method: params.capture_method,
        // Without manual capture the payment is taken at once: its charge is what a transfer is made from.
        ...(params.capture_method === "manual"
          ? { status: "requires_capture" }
          : {
              status: "succeeded",
              amount_capturable: 0,
              amount_received: Number(params.amount),
              latest_charge: this.nextId("ch"),
            }),
        transfer_group: params.transfer_group ?? null,
        application_fee_amount: params.application_fee_amount ? Number(params.application_fee_amount) : null,
        transfer_data: params["transfer_data[destination]"]
          ? { destination: params["transfer_data[destination]"] }
          : null,
        metadata: metadataOf(params),
        client_secret: `${id}_secret_fake`,
        created,
      };
      this.paymentIntents.set(id, intent);
      return ok(intent);
    }
    if (method === "POST" && (match = path.match(/^\/v1\/payment_intents\/([^/]+)\/(capture|cancel)$/))) {
      const intent = this.paymentIntents.get(match[1]!);
      if (!intent) return notFound;
      const wanted = match[2] === "capture" ? "succeeded" : "canceled";
      if (intent.status !== "requires_capture") {
        return {
          status: 400,
          body: {
            error: {
              type: "invalid_request_error",
              code: "payment_intent_unexpected_state",
              message: `This PaymentIntent's status is ${String(intent.status)}.`,
              payment_intent: intent,
            },
          },
        };
      }
      Object.assign(intent, {
        status: wanted,
        amount_capturable: 0,
        ...(wanted === "succeeded" ? { amount_received: Number(params.amount_to_capture ?? intent.amount) } : {}),
      });
      return ok(intent);
    }
    if (method === "POST" && path === "/v1/transfers") {
      const charge = [...this.paymentIntents.values()].find(
        (intent) => intent.latest_charge === params.source_transaction,
      );
      if (!this.accounts.has(params.destination!) || !charge || Number(params.amount) > Number(charge.amount_received))
        return invalid("The transfer's destination, source transaction or amount is not valid.");
      const transfer = {
        id: this.nextId("tr"),
        object: "transfer",
        amount: Number(params.amount),
        amount_reversed: 0,
        currency: params.currency,
        destination: params.destination,
        source_transaction: params.source_transaction,
        transfer_group: params.transfer_group,
        metadata: metadataOf(params),
        reversed: false,
        created,
      };
      this.transfers.set(transfer.id, transfer);
      return ok(transfer);
    }
    if (method === "POST" && (match = path.match(/^\/v1\/transfers\/([^/]+)\/reversals$/))) {
      const transfer = this.transfers.get(match[1]!);
      if (!transfer) return notFound;
      const amount = Number(params.amount ?? Number(transfer.amount) - Number(transfer.amount_reversed));
      if (amount > Number(transfer.amount) - Number(transfer.amount_reversed))
        return invalid("The reversal is more than what is left of the transfer.");
      Object.assign(transfer, {
        amount_reversed: Number(transfer.amount_reversed) + amount,
        reversed: Number(transfer.amount_reversed) + amount === Number(transfer.amount),
      });
      return ok({ id: this.nextId("trr"), object: "transfer_reversal", amount, transfer: transfer.id, created });
    }
    if (method === "POST" && path === "/v1/refunds")
      return ok({
        id: this.nextId("re"),
        object: "refund",
        amount: Number(params.amount),
        payment_intent: params.payment_intent,
        status: "succeeded",
        created,
      });
    if (method === "POST" && path === "/v1/accounts") {
      const account = {
        id: this.nextId("acct"),
        object: "account",
        type: params.type,
        email: params.email,
        details_submitted: false,
        payouts_enabled: false,
        charges_enabled: false,
        created,
      };
      this.accounts.set(account.id, account);
      return ok(account);
    }
    if (method === "GET" && (match = path.match(/^\/v1\/accounts\/([^/]+)$/))) {
      const account = this.accounts.get(match[1]!);
      return account ? ok(account) : notFound;
    }
    if (method === "POST" && path === "/v1/account_links") {
      return ok({
        object: "account_link",
        url: `https://connect.stripe.com/setup/e/${params.account}/${this.nextId("link")}`,
        created,
        expires_at: created + 300,
      });
    }
    return notFound;
  }

  /** What the browser does with Stripe.js on the payment page: the SetupIntent is confirmed with a card. */
  confirmSetupInBrowser(
    clientSecret: string,
    card: { brand: string; last4: string } = { brand: "visa", last4: "4242" },
    status = "succeeded",
  ) {
    const id = clientSecret.split("_secret_")[0]!;
    const intent = this.setupIntents.get(id);
    if (!intent) throw new Error(`no setup intent ${id}`);
    Object.assign(intent, {
      status,
      payment_method:
        status === "succeeded"
          ? this.keepMethod(paymentMethod(this.nextId("pm"), String(intent.customer), card))
          : null,
    });
    return id;
  }

  private keepMethod(method: ReturnType<typeof paymentMethod>) {
    this.paymentMethods.set(method.id, method);
    return method;
  }

  /**
   * Stripe Billing, as far as the app uses it. A subscription charges its (or its customer's)
   * default card when it is made and when a test renews it; the card's last four digits say how the
   * charge goes, like Stripe's test cards: 0002 is declined, 9995 has insufficient funds, 3155 needs 3-D Secure.
   */
  private answerBilling(
    method: string,
    path: string,
    params: Record<string, string>,
    created: number,
  ): { status: number; body: unknown } | null {
    const ok = (body: unknown) => ({ status: 200, body });
    const missing = {
      status: 404,
      body: { error: { type: "invalid_request_error", code: "resource_missing", message: "No such object" } },
    };
    let match: RegExpMatchArray | null;
    const expandInvoice = Object.entries(params).some(
      ([key, value]) => key.startsWith("expand[") && value.startsWith("latest_invoice"),
    );
    if (method === "POST" && (match = path.match(/^\/v1\/customers\/(cus_[^/]+)$/))) {
      const customer = this.customers.get(match[1]!);
      if (!customer) return missing;
      if ("invoice_settings[default_payment_method]" in params)
        customer.invoice_settings = { default_payment_method: params["invoice_settings[default_payment_method]"] };
      return ok(customer);
    }
    if (method === "POST" && (match = path.match(/^\/v1\/payment_methods\/([^/]+)\/detach$/))) {
      const card = this.paymentMethods.get(match[1]!);
      if (!card?.customer)
        return {
          status: 400,
          body: {
            error: {
              type: "invalid_request_error",
              message: "The payment method you provided is not attached to a customer so detachment is impossible.",
            },
          },
        };
      card.customer = null;
      return ok(card);
    }
    if (method === "POST" && path === "/v1/prices") {
      const price = {
        id: this.nextId("price"),
        object: "price",
        currency: params.currency,
        unit_amount: Number(params.unit_amount),
        recurring: {
          interval: params["recurring[interval]"],
          interval_count: Number(params["recurring[interval_count]"]),
        },
        product: this.nextId("prod"),
        metadata: { plan_id: params["metadata[plan_id]"] },
        created,
      };
      this.prices.set(price.id, price);
      return ok(price);
    }
    if (method === "POST" && path === "/v1/subscriptions") {
      const price = this.prices.get(params["items[0][price]"] ?? "");
      const customer = this.customers.get(params.customer ?? "");
      if (!price || !customer) return missing;
      const id = this.nextId("sub");
      const subscription: Record<string, unknown> = {
        id,
        object: "subscription",
        customer: customer.id,
        status: "incomplete",
        cancel_at_period_end: false,
        canceled_at: null,
        ended_at: null,
        default_payment_method: params.default_payment_method ?? null,
        metadata: { subscription_id: params["metadata[subscription_id]"], user_id: params["metadata[user_id]"] },
        items: {
          object: "list",
          data: [
            {
              id: this.nextId("si"),
              object: "subscription_item",
              price,
              current_period_start: created,
              current_period_end: created,
            },
          ],
        },
        latest_invoice: null,
        created,
      };
      this.subscriptions.set(id, subscription);
      this.invoice(subscription);
      return ok(this.view(subscription, expandInvoice));
    }
    if ((match = path.match(/^\/v1\/subscriptions\/(sub_[^/]+)$/))) {
      const subscription = this.subscriptions.get(match[1]!);
      if (!subscription) return missing;
      if (method === "POST") {
        if ("cancel_at_period_end" in params)
          Object.assign(subscription, {
            cancel_at_period_end: params.cancel_at_period_end === "true",
            canceled_at: params.cancel_at_period_end === "true" ? created : null,
          });
        if ("default_payment_method" in params) subscription.default_payment_method = params.default_payment_method;
      }
      if (method === "DELETE") {
        if (subscription.status === "canceled")
          return {
            status: 400,
            body: {
              error: {
                type: "invalid_request_error",
                code: "resource_already_canceled",
                message: "This subscription is already canceled.",
              },
            },
          };
        Object.assign(subscription, { status: "canceled", canceled_at: created, ended_at: created });
      }
      return ok(this.view(subscription, expandInvoice));
    }
    if (method === "POST" && (match = path.match(/^\/v1\/invoices\/(in_[^/]+)\/pay$/))) {
      const invoice = this.invoices.get(match[1]!);
      if (!invoice) return missing;
      const subscription = this.subscriptions.get(String(invoice.subscription))!;
      const intent = this.paymentIntents.get(String(invoice.payment_intent))!;
      this.charge(subscription, invoice, intent);
      if (invoice.status !== "paid")
        return cardError(
          "card_declined",
          (intent.last_payment_error as { decline_code?: string } | null)?.decline_code,
        );
      return ok(this.invoiceView(invoice));
    }
    if (method === "GET" && (match = path.match(/^\/v1\/payment_intents\/(pi_[^/]+)$/))) {
      const intent = this.paymentIntents.get(match[1]!);
      return intent ? ok(intent) : missing;
    }
    return null;
  }

  /** A new invoice for the subscription's next period, charged at once. */
  private invoice(subscription: Record<string, unknown>) {
    const id = this.nextId("in");
    const item = (subscription.items as { data: Record<string, unknown>[] }).data[0]!;
    const price = item.price as { unit_amount: number; currency: string };
    const intentId = this.nextId("pi");
    const intent: Record<string, unknown> = {
      id: intentId,
      object: "payment_intent",
      amount: price.unit_amount,
      currency: price.currency,
      customer: subscription.customer,
      status: "requires_payment_method",
      client_secret: `${intentId}_secret_fake`,
      last_payment_error: null,
    };
    this.paymentIntents.set(intentId, intent);
    const invoice: Record<string, unknown> = {
      id,
      object: "invoice",
      status: "open",
      subscription: subscription.id,
      customer: subscription.customer,
      amount_due: price.unit_amount,
      payment_intent: intentId,
      period_start: item.current_period_end,
    };
    this.invoices.set(id, invoice);
    subscription.latest_invoice = id;
    this.charge(subscription, invoice, intent);
  }

  private charge(
    subscription: Record<string, unknown>,
    invoice: Record<string, unknown>,
    intent: Record<string, unknown>,
  ) {
    const customer = this.customers.get(String(subscription.customer));
    const methodId =
      (subscription.default_payment_method as string | null) ??
      (customer?.invoice_settings as { default_payment_method: string | null }).default_payment_method;
    const card = methodId ? (this.paymentMethods.get(methodId)?.card as { last4: string } | undefined) : undefined;
    const declines: Record<string, string> = { "0002": "generic_decline", "9995": "insufficient_funds" };
    intent.payment_method = methodId;
    if (!card)
      Object.assign(intent, {
        status: "requires_payment_method",
        last_payment_error: { type: "invalid_request_error", code: "parameter_missing" },
      });
    else if (declines[card.last4])
      Object.assign(intent, {
        status: "requires_payment_method",
        last_payment_error: { type: "card_error", code: "card_declined", decline_code: declines[card.last4] },
      });
    else if (card.last4 === "3155") Object.assign(intent, { status: "requires_action", last_payment_error: null });
    else return this.paid(subscription, invoice, intent);
    subscription.status = subscription.status === "incomplete" ? "incomplete" : "past_due";
  }

  private paid(
    subscription: Record<string, unknown>,
    invoice: Record<string, unknown>,
    intent: Record<string, unknown>,
  ) {
    Object.assign(intent, { status: "succeeded", last_payment_error: null });
    invoice.status = "paid";
    const item = (subscription.items as { data: Record<string, unknown>[] }).data[0]!;
    const months = (item.price as { recurring: { interval_count: number } }).recurring.interval_count;
    const start = Math.max(Number(item.current_period_end), Number(invoice.period_start));
    const end = new Date(start * 1000);
    end.setUTCMonth(end.getUTCMonth() + months);
    Object.assign(item, { current_period_start: start, current_period_end: Math.floor(end.getTime() / 1000) });
    subscription.status = "active";
  }

  private invoiceView(invoice: Record<string, unknown>) {
    const intent = this.paymentIntents.get(String(invoice.payment_intent))!;
    return {
      ...invoice,
      parent: {
        type: "subscription_details",
        subscription_details: { subscription: invoice.subscription, metadata: null },
      },
      confirmation_secret: { client_secret: intent.client_secret, type: "payment_intent" },
      payments: {
        object: "list",
        data: [
          {
            id: `inpay_${String(invoice.id)}`,
            object: "invoice_payment",
            is_default: true,
            status: invoice.status === "paid" ? "paid" : "open",
            payment: { type: "payment_intent", payment_intent: intent.id },
          },
        ],
      },
    };
  }

  private view(subscription: Record<string, unknown>, expandInvoice: boolean) {
    const invoice = this.invoices.get(String(subscription.latest_invoice));
    return structuredClone({
      ...subscription,
      latest_invoice: expandInvoice && invoice ? this.invoiceView(invoice) : subscription.latest_invoice,
    });
  }

  /** The subscription as Stripe would send it in a webhook event. */
  subscriptionObject(id: string) {
    return this.view(this.subscriptions.get(id)!, false);
  }

  /** What Stripe.js does when the page confirms a payment that needs 3-D Secure: the invoice is paid (or not). */
  confirmPaymentInBrowser(clientSecret: string, succeeds = true) {
    const intent = this.paymentIntents.get(clientSecret.split("_secret_")[0]!)!;
    const invoice = [...this.invoices.values()].find((entry) => entry.payment_intent === intent.id)!;
    const subscription = this.subscriptions.get(String(invoice.subscription))!;
    if (succeeds) this.paid(subscription, invoice, intent);
    else
      Object.assign(intent, {
        status: "requires_payment_method",
        last_payment_error: { type: "card_error", code: "payment_intent_authentication_failure" },
      });
  }

  /** Time passes at Stripe: the subscription's next period is invoiced and charged (or, cancelled at the period's end, it ends). */
  renew(id: string) {
    const subscription = this.subscriptions.get(id)!;
    const item = (subscription.items as { data: Record<string, unknown>[] }).data[0]!;
    if (subscription.cancel_at_period_end) {
      Object.assign(subscription, { status: "canceled", ended_at: item.current_period_end });
      return;
    }
    this.invoice(subscription);
  }
}

/** The `metadata[key]` parameters of a request, as Stripe keeps them. */
function metadataOf(params: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(params).flatMap(([key, value]) => {
      const name = /^metadata\[([^\]]+)\]$/.exec(key)?.[1];
      return name ? [[name, value]] : [];
    }),
  );
}

function paymentMethod(id: string, customer: string, card = { brand: "visa", last4: "4242" }) {
  return { id, object: "payment_method", type: "card", customer, card: { ...card, exp_month: 12, exp_year: 2030 } };
}

export async function startFakeStripe(): Promise<FakeStripe> {
  return new FakeStripe().start();
}
