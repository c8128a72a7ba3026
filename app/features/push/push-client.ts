// The browser side of push, loaded only when a button of the settings page's push section is pressed.

interface Answer {
  ok: boolean;
  message: string;
}

const keyBytes = (base64url: string) =>
  Uint8Array.from(atob(base64url.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

async function post(fields: Record<string, string>): Promise<Answer> {
  const response = await fetch("/settings/push", {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { Accept: "application/json" },
  });
  const answer = (await response.json().catch(() => null)) as Answer | null;
  return answer ?? { ok: false, message: "settings:push.failed" };
}

const currentSubscription = async () => (await navigator.serviceWorker.ready).pushManager.getSubscription();

export async function turnOn(publicKey: string): Promise<Answer> {
  // Asked only now, after the person pressed the button.
  if ((await Notification.requestPermission()) !== "granted") return { ok: false, message: "settings:push.denied" };
  const registration = await navigator.serviceWorker.ready;
  const key = keyBytes(publicKey);
  let subscription = await registration.pushManager.getSubscription();
  const sameKey = (held: ArrayBuffer | null | undefined) =>
    held !== null && held !== undefined && new Uint8Array(held).every((byte, i) => byte === key[i]);
  // A subscription made for another server key (the keys were replaced) cannot be used.
  if (subscription && !sameKey(subscription.options.applicationServerKey)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  const json = subscription.toJSON();
  return post({
    intent: "subscribe",
    endpoint: subscription.endpoint,
    p256dh: json.keys?.p256dh ?? "",
    auth: json.keys?.auth ?? "",
  });
}

export async function turnOff(): Promise<Answer> {
  const subscription = await currentSubscription();
  if (!subscription) return { ok: true, message: "settings:push.turnedOff" };
  const answer = await post({ intent: "unsubscribe", endpoint: subscription.endpoint });
  await subscription.unsubscribe();
  return answer;
}

export async function sendTest(): Promise<Answer> {
  const subscription = await currentSubscription();
  if (!subscription) return { ok: false, message: "settings:push.refusals.unknown" };
  return post({ intent: "test", endpoint: subscription.endpoint });
}
