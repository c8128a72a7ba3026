import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useRouteError } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ConsoleNav } from "~/features/admin";
import { openReportCount } from "~/features/admin/index.server";
import { requireAdmin } from "~/platform/operator.server";
import { PawLogo } from "~/platform/ui/logo";
import { RouteErrorPage } from "~/platform/ui/not-found";

export const handle = { i18n: ["admin", "safety"], title: "admin:title" };

export async function loader({ request }: LoaderFunctionArgs) {
  const operator = await requireAdmin(request);
  return { operatorName: operator.name, openReports: await openReportCount() };
}

export default function AdminLayout() {
  const { t } = useTranslation("admin");
  const { operatorName, openReports } = useLoaderData<typeof loader>();
  return (
    <div className="min-h-dvh bg-stone-50">
      <header className="bg-white">
        <div className="mx-auto flex max-w-5xl items-center gap-3 px-4 py-3">
          <PawLogo className="size-8" />
          <p className="flex-1 text-lg font-bold">{t("title")}</p>
          <p className="hidden text-sm text-stone-700 sm:block">{t("signedInAs", { name: operatorName })}</p>
          <Link to="/dashboard" className="text-sm font-semibold text-brand-800 underline">
            {t("leave")}
          </Link>
        </div>
      </header>
      <ConsoleNav openReports={openReports} />
      <main id="main" className="mx-auto max-w-5xl px-4 py-4">
        <Outlet />
      </main>
    </div>
  );
}

// No console around it: a refused visitor must not learn the console exists.
export function ErrorBoundary() {
  return <RouteErrorPage error={useRouteError()} />;
}
