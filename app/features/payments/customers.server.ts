import { db } from "~/platform/db.server";
import type { PaymentProvider, PaymentResult } from "./provider";

export async function storedCustomer(userId: string): Promise<string | null> {
  const row = await db.selectFrom("users").select("stripe_customer_id").where("id", "=", userId).executeTakeFirst();
  return row?.stripe_customer_id ?? null;
}

/** One idempotency key per person, so two first entries at once make one customer. */
export async function payerCustomer(
  provider: PaymentProvider,
  user: { id: string; email: string; name: string },
): Promise<PaymentResult<{ customerRef: string }>> {
  const stored = await storedCustomer(user.id);
  if (stored) return { ok: true, customerRef: stored };
  if (!provider.createCustomer) return { ok: false, code: "processing_error" };
  const made = await provider.createCustomer({
    userId: user.id,
    email: user.email,
    name: user.name,
    idempotencyKey: `${user.id}:customer`,
  });
  if (!made.ok) return made;
  await db
    .updateTable("users")
    .set({ stripe_customer_id: made.customerRef })
    .where("id", "=", user.id)
    .where("stripe_customer_id", "is", null)
    .execute();
  const kept = await storedCustomer(user.id);
  return kept ? { ok: true, customerRef: kept } : { ok: false, code: "processing_error" };
}
