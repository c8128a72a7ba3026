import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider } from "react-i18next";
import { keepEarlyInputFromReact } from "~/platform/hydration.client";
import { createTranslator, fetchTranslations } from "~/platform/i18n.client";

async function hydrate() {
  const translator = createTranslator(document.documentElement.lang, fetchTranslations);
  await translator.init();
  // Remix has decoded the page's data once its router exists.
  keepEarlyInputFromReact(() => window.__remixRouter !== undefined);
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={translator.i18n}>
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
  const register = () =>
    void navigator.serviceWorker
      .register(`/sw.js?lng=${encodeURIComponent(document.documentElement.lang)}`)
      .catch(() => undefined);
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
