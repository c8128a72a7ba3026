import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

type State = "explain" | "unsupported" | "off" | "on" | "denied";

/**
 * "Notifications on this device". Rendered on the server as a plain explanation (push needs
 * JavaScript and a browser that has it); after hydration it offers the buttons. The code that asks
 * for permission and subscribes loads only when a button is pressed.
 */
export function PushSection({ publicKey, deviceCount }: { publicKey: string | null; deviceCount: number }) {
  const { t } = useTranslation("settings");
  const [state, setState] = useState<State>("explain");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  useEffect(() => {
    const supported = publicKey && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
    if (!supported) return setState("unsupported");
    if (Notification.permission === "denied") return setState("denied");
    void navigator.serviceWorker.getRegistration().then(async (registration) => {
      const subscription = await registration?.pushManager.getSubscription();
      setState(subscription ? "on" : "off");
    });
  }, [publicKey]);

  const act = (what: "turnOn" | "turnOff" | "sendTest") => async () => {
    setBusy(true);
    setMessage(null);
    try {
      const client = await import("./push-client");
      const answer = await client[what](publicKey ?? "");
      setMessage({ ok: answer.ok, text: answer.message });
      if (answer.ok && what !== "sendTest") setState(what === "turnOn" ? "on" : "off");
      if (answer.message === "settings:push.denied") setState("denied");
    } catch {
      setMessage({ ok: false, text: "settings:push.failed" });
    } finally {
      setBusy(false);
    }
  };

  const button = "rounded-lg px-4 py-2 text-sm font-semibold disabled:opacity-60";
  return (
    <section aria-labelledby="push-title" className="space-y-3 border-t border-stone-200 px-4 py-6">
      <h2 id="push-title" className="text-lg font-semibold">
        {t("push.title")}
      </h2>
      <p className="text-sm text-stone-700">{t("push.intro")}</p>
      {state === "explain" ? <p className="text-sm text-stone-700">{t("push.needsJavaScript")}</p> : null}
      {state === "unsupported" ? <p className="text-sm text-stone-700">{t("push.unsupported")}</p> : null}
      {state === "denied" ? <p className="text-sm text-stone-700">{t("push.blocked")}</p> : null}
      {state === "off" ? (
        <button type="button" disabled={busy} onClick={act("turnOn")} className={`${button} bg-brand-700 text-white`}>
          {t("push.turnOn")}
        </button>
      ) : null}
      {state === "on" ? (
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            disabled={busy}
            onClick={act("sendTest")}
            className={`${button} bg-brand-700 text-white`}
          >
            {t("push.sendTest")}
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={act("turnOff")}
            className={`${button} bg-white text-stone-900 ring-1 ring-stone-300`}
          >
            {t("push.turnOff")}
          </button>
        </div>
      ) : null}
      <p role="status" className={`text-sm ${message?.ok === false ? "text-red-800" : "text-stone-700"}`}>
        {message ? t(message.text) : null}
      </p>
      {deviceCount > 0 ? <p className="text-xs text-stone-600">{t("push.devices", { count: deviceCount })}</p> : null}
    </section>
  );
}
