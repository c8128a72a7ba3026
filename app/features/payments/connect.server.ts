import type Stripe from "stripe";
import type { User } from "~db/schema";
import { db, flag } from "~/platform/db.server";
import { nowIso } from "~/platform/clock.server";
import { paysOutThroughStripe, stripe } from "./payments.server";
import { failureOfError } from "./stripe-provider.server";
import type { WebhookHandlers } from "./stripe-webhooks.server";

/** Sitters can be booked only once Stripe says their Express account's payouts are enabled. */

export type PayoutStatus = { provider: "stripe"; started: boolean; ready: boolean } | { provider: "other" };

export function payoutStatusOf(user: Pick<User, "stripe_account_id" | "payouts_enabled">): PayoutStatus {
  if (!paysOutThroughStripe()) return { provider: "other" };
  return { provider: "stripe", started: user.stripe_account_id !== null, ready: flag.read(user.payouts_enabled) };
}

export async function refreshPayoutStatus(user: Pick<User, "id" | "stripe_account_id">): Promise<boolean | null> {
  if (!user.stripe_account_id) return null;
  try {
    const account = await stripe().accounts.retrieve(user.stripe_account_id);
    const ready = Boolean(account.details_submitted && account.payouts_enabled);
    await db
      .updateTable("users")
      .set({ payouts_enabled: flag.write(ready), updated_at: nowIso() })
      .where("id", "=", user.id)
      .execute();
    return ready;
  } catch (error) {
    failureOfError(error);
    return null;
  }
}

export async function payoutOnboardingLink(
  user: Pick<User, "id" | "email" | "stripe_account_id">,
  urls: { returnUrl: string; refreshUrl: string },
  attempt: string,
): Promise<string | null> {
  try {
    let account = user.stripe_account_id;
    if (!account) {
      const created = await stripe().accounts.create(
        {
          type: "express",
          email: user.email,
          capabilities: { transfers: { requested: true } },
          metadata: { user_id: user.id },
        },
        { idempotencyKey: `${user.id}:connect-account` },
      );
      account = created.id;
      await db
        .updateTable("users")
        .set({ stripe_account_id: account, payouts_enabled: 0, updated_at: nowIso() })
        .where("id", "=", user.id)
        .where("stripe_account_id", "is", null)
        .execute();
    }
    const link = await stripe().accountLinks.create(
      { account, type: "account_onboarding", return_url: urls.returnUrl, refresh_url: urls.refreshUrl },
      { idempotencyKey: `${user.id}:account-link:${attempt}` },
    );
    return link.url;
  } catch (error) {
    failureOfError(error);
    return null;
  }
}

export const connectStripeEvents: WebhookHandlers = {
  "account.updated": async (event) => {
    const account = event.data.object as Stripe.Account;
    const ready = Boolean(account.details_submitted && account.payouts_enabled);
    const updated = await db
      .updateTable("users")
      .set({ payouts_enabled: flag.write(ready), updated_at: nowIso() })
      .where("stripe_account_id", "=", account.id)
      .where("payouts_enabled", "=", ready ? 0 : 1)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0 ? "applied" : "ignored: unchanged";
  },
};
