import { readFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clockTo, resetClockAfterEach } from "~/testing/clock";
import { SECRET_KEY, type FakeStripe } from "~/testing/fake-stripe";
import { payWithStripe, payableSitter, stripeRequest, withFakeStripe } from "~/testing/stripe";
import { bookingRow, card, ownerWithPet, requested, sitterWithSlot } from "~/testing/bookings";
import { useStripeClient, createStripeClient } from "~/features/payments/index.server";
import { failureMessage } from "~/features/payments";
import { supportedLanguages } from "~/platform/i18n";
import { transition } from "./bookings.server";
import { payForBooking, startCardEntry } from "./payment-entry.server";
import { runDueBookingWork } from "./due-work.server";

// The payment provider down: its address refuses to talk (every connection is closed at once), or
// it is gone from the configuration. The app must keep answering, keep the booking whole, tell the
// owner to try again, and finish the payment work on a later scheduler round.

let fake: FakeStripe;
let refusedConnections = 0;
const down = createServer((socket) => {
  refusedConnections += 1;
  socket.destroy();
});
let downClient: ReturnType<typeof createStripeClient>;

withFakeStripe((started) => (fake = started));
beforeAll(async () => {
  await new Promise<void>((resolve) => down.listen(0, "127.0.0.1", resolve));
  downClient = createStripeClient({
    secretKey: SECRET_KEY,
    host: "127.0.0.1",
    port: (down.address() as AddressInfo).port,
    protocol: "http",
    maxNetworkRetries: 0,
    timeoutMs: 2000,
  });
});
resetClockAfterEach();
afterAll(async () => {
  await new Promise((resolve) => down.close(resolve));
});

/** A test-provider booking, paid and accepted, whose start the next scheduler round must notice. */
async function confirmedTestBooking() {
  const sitter = await sitterWithSlot();
  const owner = await ownerWithPet();
  const booking = await requested(owner, sitter);
  expect(await payForBooking(owner, booking.id, card(), "pay-1")).toEqual({ status: "held" });
  expect((await transition(booking.id, { kind: "sitter", userId: sitter.id }, { type: "accept" })).ok).toBe(true);
  return bookingRow(booking.id);
}

describe("when the payment provider is down", () => {
  it("the owner's payment fails with a translated 'try again' message, nothing is half-written, and paying works once it is back", async () => {
    const owner = await ownerWithPet();
    const booking = await stripeRequest(owner, await payableSitter());

    useStripeClient(downClient);
    expect(await startCardEntry(owner, booking.id, "attempt-1")).toEqual({
      status: "failed",
      code: "processing_error",
    });
    expect(await bookingRow(booking.id)).toMatchObject({
      status: "requested",
      payment_status: "unpaid",
      card_ref: null,
      hold_ref: null,
      payment_task: null,
    });
    expect(refusedConnections).toBeGreaterThan(0);

    // What the payment page shows for it, in every language.
    const [namespace, key] = failureMessage("processing_error").split(":") as [string, string];
    const texts = supportedLanguages.map((lng) => {
      const messages = JSON.parse(readFileSync(path.resolve("locales", lng, `${namespace}.json`), "utf8")) as Record<
        string,
        unknown
      >;
      return key
        .split(".")
        .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], messages);
    });
    for (const text of texts) expect(text).toEqual(expect.stringMatching(/\S/));
    expect(new Set(texts).size).toBe(supportedLanguages.length);
    expect(texts[supportedLanguages.indexOf("en")]).toMatch(/try again/i);

    useStripeClient(fake.client());
    expect(await payWithStripe(fake, owner, booking.id, "attempt-2")).toEqual({ status: "held" });
    expect(await bookingRow(booking.id)).toMatchObject({ payment_status: "held", payment_task: null });
  });

  it("a release while it is down is saved; the scheduler's rounds go on for other bookings and capture once it is back", async () => {
    const sitter = await payableSitter();
    const owner = await ownerWithPet();
    const booking = await stripeRequest(owner, sitter);
    await payWithStripe(fake, owner, booking.id);
    await transition(booking.id, { kind: "sitter", userId: sitter.id }, { type: "accept" });
    clockTo((await bookingRow(booking.id)).end_at);
    await runDueBookingWork();
    const other = await confirmedTestBooking();

    useStripeClient(downClient);
    expect(await transition(booking.id, { kind: "owner", userId: owner.id }, { type: "release" })).toMatchObject({
      ok: true,
      booking: { payment_task: "capture", payment_status: "held" },
    });
    clockTo(other.start_at);
    await runDueBookingWork();
    expect(await bookingRow(booking.id)).toMatchObject({
      payment_task: "capture",
      payment_status: "held",
      payment_error: "processing_error",
    });
    expect((await bookingRow(booking.id)).payment_task_attempts).toBeGreaterThanOrEqual(2);
    expect((await bookingRow(other.id)).status).toBe("in-progress");

    useStripeClient(fake.client());
    await runDueBookingWork();
    expect(await bookingRow(booking.id)).toMatchObject({ payment_task: null, payment_status: "released" });
  });

  it("a provider gone from the configuration (Stripe's keys removed) fails only its own bookings' work, which waits for it", async () => {
    const sitter = await payableSitter();
    const owner = await ownerWithPet();
    const booking = await stripeRequest(owner, sitter);
    await payWithStripe(fake, owner, booking.id);
    const waiting = await stripeRequest(owner, await payableSitter());
    const other = await confirmedTestBooking();

    // No client and no STRIPE_SECRET_KEY: asking for the Stripe provider throws.
    useStripeClient(null);
    expect(await startCardEntry(owner, waiting.id, "attempt-1")).toEqual({
      status: "failed",
      code: "processing_error",
    });
    expect(
      await transition(booking.id, { kind: "owner", userId: owner.id }, { type: "cancel", reason: "Plans changed" }),
    ).toMatchObject({
      ok: true,
      booking: { status: "cancelled", payment_task: "void" },
    });
    clockTo(other.start_at);
    await runDueBookingWork();
    expect((await bookingRow(other.id)).status).toBe("in-progress");
    expect(await bookingRow(booking.id)).toMatchObject({
      payment_task: "void",
      payment_status: "held",
      payment_error: "processing_error",
    });

    useStripeClient(fake.client());
    await runDueBookingWork();
    expect(await bookingRow(booking.id)).toMatchObject({ payment_task: null, payment_status: "refunded" });
  });
});
