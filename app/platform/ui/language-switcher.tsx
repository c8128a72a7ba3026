import { Form, useLocation, useSubmit } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { languageNames, supportedLanguages } from "~/platform/i18n";

export function LanguageSwitcher({ className = "" }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const submit = useSubmit();
  return (
    <Form method="post" action="/settings/language" className={`flex flex-wrap items-center gap-2 ${className}`}>
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <label htmlFor="language-select" className="sr-only">
        {t("language.label")}
      </label>
      <select
        id="language-select"
        name="language"
        defaultValue={i18n.language}
        className="min-h-11 max-w-full rounded-lg border border-stone-300 bg-white px-2 text-sm"
        onChange={(event) => {
          try {
            localStorage.setItem("i18nextLng", event.currentTarget.value);
          } catch {
            // Private browsing may refuse storage; the cookie still carries the choice.
          }
          submit(event.currentTarget.form);
        }}
      >
        {supportedLanguages.map((lng) => (
          <option key={lng} value={lng} lang={lng}>
            {languageNames[lng]}
          </option>
        ))}
      </select>
      <noscript>
        <button type="submit" className="btn btn-secondary min-h-11 px-3 text-sm">
          {t("language.apply")}
        </button>
      </noscript>
    </Form>
  );
}
