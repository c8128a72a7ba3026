import { isRouteErrorResponse, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PawLogo } from "./logo";

export function NotFound() {
  const { t } = useTranslation();
  return (
    <main
      id="main"
      className="mx-auto flex min-h-[70vh] max-w-md flex-col items-center justify-center gap-4 px-6 text-center"
    >
      <PawLogo className="size-16" />
      <h1 className="text-3xl font-bold">{t("notFound.title")}</h1>
      <p className="text-stone-700">{t("notFound.body")}</p>
      <Link to="/" className="btn btn-primary">
        {t("notFound.home")}
      </Link>
    </main>
  );
}

export function RouteErrorPage({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const kind = errorKind(error);
  if (kind === "notFound") return <NotFound />;
  return (
    <main id="main" className="mx-auto max-w-md px-6 py-16 text-center">
      <h1 className="text-2xl font-bold">{t(errorTitleKey(error))}</h1>
      <p className="mt-2 text-stone-700">{t(`errors.${kind}Body`)}</p>
      {/* A full load: after a failure the page's own state may be what is broken. */}
      <a href="/" className="btn btn-primary mt-6">
        {t("notFound.home")}
      </a>
    </main>
  );
}

function errorKind(error: unknown) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return status === 404
    ? "notFound"
    : status === 403
      ? "forbidden"
      : status === 400
        ? "badRequest"
        : status === 413
          ? "tooLarge"
          : "generic";
}

export function errorTitleKey(error: unknown): string {
  const kind = errorKind(error);
  return kind === "notFound" ? "notFound.title" : `errors.${kind}Title`;
}
