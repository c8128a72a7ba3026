import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type Stripe from "stripe";
import { createStripeClient } from "./stripe-provider.server";

/**
 * For tests: a small HTTP server on 127.0.0.1 that answers like the Stripe API for the endpoints
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

export type Reply = { status: number; body: unknown; transient?: boolean } | "hang";

export const SECRET_KEY = "sk_test_fake";

export const cardError = (code: string, declineCode?: string, extra: Record<string, unknown> = {}) => ({
  status: 402,
  body: { error: { type: "card_error", code, ...(declineCode ? { decline_code: declineCode } : {}), message: `Your card was declined (${code}).`, ...extra } },
});

export const serverError = (transient = false) => ({ status: 500, transient, body: { error: { type: "api_error", message: "An unknown error occurred" } } });

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
    return createStripeClient({ secretKey: SECRET_KEY, host: "127.0.0.1", port: this.port, protocol: "http", maxNetworkRetries: options.maxNetworkRetries ?? 0, timeoutMs: options.timeoutMs ?? 2_000 });
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
    const form = request.method === "GET" ? url.searchParams : new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
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
    if (scripted === "hang") {
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
    const notFound = { status: 404, body: { error: { type: "invalid_request_error", code: "resource_missing", message: "No such object" } } };
    let match: RegExpMatchArray | null;

    if (method === "POST" && path === "/v1/customers") return ok({ id: this.nextId("cus"), object: "customer", email: params.email, name: params.name, created });
    if (method === "POST" && path === "/v1/setup_intents") {
      const id = this.nextId("seti");
      const intent = { id, object: "setup_intent", client_secret: `${id}_secret_fake`, customer: params.customer, usage: params.usage, status: "requires_payment_method", payment_method: null, metadata: { booking_id: params["metadata[booking_id]"] }, created };
      this.setupIntents.set(id, intent);
      return ok(intent);
    }
    if (method === "GET" && (match = path.match(/^\/v1\/setup_intents\/([^/]+)$/))) {
      const intent = this.setupIntents.get(match[1]!);
      return intent ? ok(intent) : notFound;
    }
    if (method === "POST" && (match = path.match(/^\/v1\/payment_methods\/([^/]+)\/attach$/))) return ok(paymentMethod(match[1]!, params.customer!));
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
        status: "requires_capture",
        application_fee_amount: params.application_fee_amount ? Number(params.application_fee_amount) : null,
        transfer_data: params["transfer_data[destination]"] ? { destination: params["transfer_data[destination]"] } : null,
        metadata: { booking_id: params["metadata[booking_id]"] },
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
        return { status: 400, body: { error: { type: "invalid_request_error", code: "payment_intent_unexpected_state", message: `This PaymentIntent's status is ${String(intent.status)}.`, payment_intent: intent } } };
      }
      Object.assign(intent, { status: wanted, amount_capturable: 0, ...(wanted === "succeeded" ? { amount_received: Number(params.amount_to_capture ?? intent.amount) } : {}) });
      return ok(intent);
    }
    if (method === "POST" && path === "/v1/refunds") return ok({ id: this.nextId("re"), object: "refund", amount: Number(params.amount), payment_intent: params.payment_intent, status: "succeeded", created });
    if (method === "POST" && path === "/v1/accounts") {
      const account = { id: this.nextId("acct"), object: "account", type: params.type, email: params.email, details_submitted: false, payouts_enabled: false, charges_enabled: false, created };
      this.accounts.set(account.id, account);
      return ok(account);
    }
    if (method === "GET" && (match = path.match(/^\/v1\/accounts\/([^/]+)$/))) {
      const account = this.accounts.get(match[1]!);
      return account ? ok(account) : notFound;
    }
    if (method === "POST" && path === "/v1/account_links") {
      return ok({ object: "account_link", url: `https://connect.stripe.com/setup/e/${params.account}/${this.nextId("link")}`, created, expires_at: created + 300 });
    }
    return notFound;
  }

  /** What the browser does with Stripe.js on the payment page: the SetupIntent is confirmed with a card. */
  confirmSetupInBrowser(clientSecret: string, card: { brand: string; last4: string } = { brand: "visa", last4: "4242" }, status = "succeeded") {
    const id = clientSecret.split("_secret_")[0]!;
    const intent = this.setupIntents.get(id);
    if (!intent) throw new Error(`no setup intent ${id}`);
    Object.assign(intent, { status, payment_method: status === "succeeded" ? paymentMethod(this.nextId("pm"), String(intent.customer), card) : null });
    return id;
  }
}

function paymentMethod(id: string, customer: string, card = { brand: "visa", last4: "4242" }) {
  return { id, object: "payment_method", type: "card", customer, card: { ...card, exp_month: 12, exp_year: 2030 } };
}

export async function startFakeStripe(): Promise<FakeStripe> {
  return new FakeStripe().start();
}
