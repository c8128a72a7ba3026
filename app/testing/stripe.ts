import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { db } from "~/platform/db.server";
import { requestBooking, payForBooking, startCardEntry } from "~/features/bookings/index.server";
import { paymentProvider, useStripeClient } from "~/features/payments/index.server";
import { requestInput, sitterWithSlot, type Owner } from "./bookings";
import { startFakeStripe, type FakeStripe } from "./fake-stripe";

/** The fake Stripe API for a test file: started once (handed to `keep`), cleared and made the app's Stripe client before each test. */
export function withFakeStripe(
  keep: (fake: FakeStripe) => void,
  clientOptions: Parameters<FakeStripe["client"]>[0] = {},
) {
  let fake: FakeStripe;
  beforeAll(async () => {
    fake = await startFakeStripe();
    keep(fake);
  });
  beforeEach(() => {
    fake.clear();
    useStripeClient(fake.client(clientOptions));
  });
  afterAll(async () => {
    useStripeClient(null);
    await fake.close();
  });
}

let accounts = 0;

/** A sitter with a slot and a connected account that Stripe says can receive payouts. */
export async function payableSitter(options: { daysAhead?: number; rateCents?: number } = {}) {
  const sitter = await sitterWithSlot(options);
  accounts += 1;
  const account = `acct_test${String(accounts).padStart(4, "0")}${sitter.id.slice(0, 4)}`;
  await db
    .updateTable("users")
    .set({ stripe_account_id: account, payouts_enabled: 1 })
    .where("id", "=", sitter.id)
    .execute();
  return { ...sitter, account };
}

/** A request paid with Stripe, not yet authorised. */
export async function stripeRequest(owner: Owner, sitter: { id: string; day: string }, startTime = "10:00", hours = 2) {
  const result = await requestBooking(
    owner,
    requestInput(sitter.id, owner.petId, sitter.day, startTime, hours),
    paymentProvider("stripe"),
  );
  if (result.status !== "created") throw new Error(`request refused: ${result.reason}`);
  return result.booking;
}

/** What the payment page does: start the card entry, confirm the SetupIntent in the browser, post its id. */
export async function payWithStripe(
  fake: FakeStripe,
  owner: Owner,
  bookingId: string,
  attempt: string = randomUUID(),
  card?: { brand: string; last4: string },
) {
  const entry = await startCardEntry(owner, bookingId, attempt);
  if (entry.status !== "ready") throw new Error(`card entry refused: ${JSON.stringify(entry)}`);
  const setupIntent = fake.confirmSetupInBrowser(entry.clientSecret, card);
  return payForBooking(owner, bookingId, { kind: "token", token: setupIntent, name: owner.name }, attempt);
}
