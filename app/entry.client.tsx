import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { i18nConfig, namespaces } from "~/platform/i18n";
import { localesBackend } from "~/platform/i18n-backend.client";

async function hydrate() {
  const root = document.documentElement;
  await i18next
    .use(initReactI18next)
    .use(localesBackend)
    .init({ ...i18nConfig, lng: root.lang, ns: namespaces });
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

void hydrate();

// Keeps the offline page in the page's language (public/sw.js); browsers offer it only on https and localhost.
if ("serviceWorker" in navigator) {
  const register = () => void navigator.serviceWorker.register(`/sw.js?lng=${encodeURIComponent(document.documentElement.lang)}`).catch(() => undefined);
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
