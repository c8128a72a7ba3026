import type { BackendModule } from "i18next";

// The general HTTP backend ships a fetch ponyfill that every browser we serve already has.
export const localesBackend: BackendModule = {
  type: "backend",
  init() {},
  read(language, namespace, callback) {
    const version = document.documentElement.dataset.i18nVersion ?? "";
    fetch(`/locales/${language}/${namespace}?v=${encodeURIComponent(version)}`)
      .then((response) => {
        if (!response.ok) throw new Error(`Translations ${language}/${namespace}: ${response.status}`);
        return response.json();
      })
      .then((data) => callback(null, data))
      .catch((error: Error) => callback(error, null));
  },
};
