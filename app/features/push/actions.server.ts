import { isLanguage } from "~/platform/i18n";
import { translatorFor } from "~/platform/i18n.server";
import { enqueueTestPush } from "./outbox.server";
import { vapidKeys } from "./keys.server";
import { pushActionSchema } from "./schema";
import { listDevices, removeSubscription, saveSubscription } from "./subscriptions.server";

export interface PushActionAnswer {
  status: number;
  body: { ok: boolean; message: string };
}

const answer = (status: number, message: string): PushActionAnswer => ({
  status,
  body: { ok: status < 300, message },
});

/**
 * The settings page's push requests, for the signed-in person only: every change names an endpoint,
 * and only one of their own devices is ever changed or sent to.
 */
export async function handlePushAction(
  userId: string,
  formData: FormData,
  userAgent: string | null,
): Promise<PushActionAnswer> {
  const parsed = pushActionSchema.safeParse(Object.fromEntries(formData));
  if (!parsed.success) return answer(400, "settings:push.refusals.invalid");
  const request = parsed.data;
  if (!(await vapidKeys())) return answer(503, "settings:push.refusals.unavailable");
  if (request.intent === "subscribe") {
    const saved = await saveSubscription(userId, request, userAgent);
    return saved.ok ? answer(200, "settings:push.turnedOn") : answer(400, saved.error);
  }
  if (request.intent === "unsubscribe") {
    // Turning off a device that is no longer stored (a 410 removed it) is done all the same.
    await removeSubscription(userId, request.endpoint);
    return answer(200, "settings:push.turnedOff");
  }
  const queued = await enqueueTestPush(userId, request.endpoint, async (language) => {
    const t = await translatorFor(isLanguage(language) ? language : "en", "settings");
    return { title: t("push.testPush.title"), body: t("push.testPush.body") };
  });
  return queued ? answer(200, "settings:push.testSent") : answer(404, "settings:push.refusals.unknown");
}

/** What the settings page shows: whether push is offered here, its public key, and the person's devices. */
export async function pushSettingsOf(userId: string) {
  const keys = await vapidKeys();
  return { publicKey: keys?.publicKey ?? null, devices: await listDevices(userId) };
}
