import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { errorTitleKey } from "~/platform/ui/not-found";

export interface NoHourlyRate {
  noHourlyRate: { id: string; name: string };
}

function isNoHourlyRate(value: unknown): value is NoHourlyRate {
  return typeof value === "object" && value !== null && "noHourlyRate" in value;
}

/**
 * A route's error page (inside the layout's main landmark) that tells an owner a sitter offers no pet
 * sitting by the hour, with a link back to the sitter's profile, where their other services are; any
 * other error as a plain not-found or failure.
 */
export function NoHourlyRateBoundary() {
  const { t } = useTranslation(["profile", "common"]);
  const error = useRouteError();
  if (!isRouteErrorResponse(error) || !isNoHourlyRate(error.data)) {
    const notFound = isRouteErrorResponse(error) && error.status === 404;
    return (
      <div className="mx-auto max-w-md px-6 py-16 text-center">
        <h1 className="text-2xl font-bold">{t(`common:${errorTitleKey(error)}`)}</h1>
        <p className="mt-2 text-stone-700">{t(notFound ? "common:notFound.body" : "common:errors.genericBody")}</p>
        <a href="/" className="btn btn-primary mt-6">
          {t("common:notFound.home")}
        </a>
      </div>
    );
  }
  const sitter = error.data.noHourlyRate;
  return (
    <div className="mx-auto max-w-md px-6 py-16 text-center">
      <h1 className="text-2xl font-bold">{t("noHourlyRate.title", { name: sitter.name })}</h1>
      <p className="mt-2 text-stone-700">{t("noHourlyRate.body", { name: sitter.name })}</p>
      <Link to={`/users/${encodeURIComponent(sitter.id)}`} className="btn btn-primary mt-6">
        {t("noHourlyRate.back", { name: sitter.name })}
      </Link>
    </div>
  );
}
