import { sql, type Kysely } from "kysely";
import type { Database, PlanInterval } from "./schema";

// Plans are data: migration 0007 and the demo seed write them with ensurePlans; the screens read the table.
export interface PlanSeed {
  id: string;
  name: string;
  priceCents: number;
  interval: PlanInterval;
  features: string[];
  popular: boolean;
  position: number;
}

export const PLANS: PlanSeed[] = [
  {
    id: "monthly",
    name: "Monthly",
    priceCents: 999,
    interval: "month",
    features: ["unlimitedLikes", "seeWhoLikedYou", "boost"],
    popular: false,
    position: 1,
  },
  {
    id: "semiannual",
    name: "6 Months",
    priceCents: 4999,
    interval: "6months",
    features: ["unlimitedLikes", "seeWhoLikedYou", "boost", "save16"],
    popular: true,
    position: 2,
  },
  {
    id: "yearly",
    name: "Yearly",
    priceCents: 8999,
    interval: "year",
    features: ["unlimitedLikes", "seeWhoLikedYou", "boost", "save25"],
    popular: false,
    position: 3,
  },
];

export async function ensurePlans(db: Kysely<Database>, at = new Date().toISOString()): Promise<void> {
  for (const plan of PLANS) {
    const row = {
      name: plan.name,
      price_cents: plan.priceCents,
      currency: "EUR",
      interval: plan.interval,
      features: JSON.stringify(plan.features),
      popular: plan.popular ? 1 : 0,
      position: plan.position,
    };
    await db
      .insertInto("subscription_plans")
      .values({ id: plan.id, ...row, stripe_price_id: null, active: 1, created_at: at })
      .onConflict((oc) =>
        oc.column("id").doUpdateSet({
          ...row,
          // A Stripe price cannot change: a plan whose amount, currency or interval changed gets a new one on its next checkout.
          stripe_price_id: sql`case when subscription_plans.price_cents = excluded.price_cents and subscription_plans.currency = excluded.currency
            and subscription_plans.interval = excluded.interval then subscription_plans.stripe_price_id end`,
        }),
      )
      .execute();
  }
}
