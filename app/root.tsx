import { data, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useNavigation,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useChangeLanguage } from "remix-i18next/react";
import { HoneypotProvider } from "remix-utils/honeypot/react";
import { countUnread } from "~/features/notifications/index.server";
import { env } from "~/platform/env.server";
import { honeypotInputProps } from "~/platform/honeypot.server";
import { fallbackLanguage, isLanguage } from "~/platform/i18n";
import { languageCookie, languageOf, resourcesVersion } from "~/platform/i18n.server";
import { useNonce } from "~/platform/nonce";
import { getUser } from "~/platform/session.server";
import { takeToast } from "~/platform/toast.server";
import { useDocumentTitle } from "~/platform/ui/document-title";
import { RouteErrorPage } from "~/platform/ui/not-found";
import { Toaster } from "~/platform/ui/toaster";
import stylesheet from "~/tailwind.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "apple-touch-icon", href: "/icons/icon-192.png" },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const [user, language, { toast, clearCookie }] = await Promise.all([
    getUser(request),
    languageOf(request),
    takeToast(request),
  ]);
  const headers = new Headers();
  if (clearCookie) headers.append("Set-Cookie", clearCookie);
  const requested = new URL(request.url).searchParams.get("lng");
  if (isLanguage(requested)) headers.append("Set-Cookie", await languageCookie.serialize(requested));
  return data(
    {
      language,
      i18nVersion: resourcesVersion,
      toast,
      user: user ? { id: user.id, name: user.name, role: user.role } : null,
      unreadCount: user ? await countUnread(user.id) : 0,
      honeypotInputProps: honeypotInputProps(),
      demoMode: env.DEMO_MODE,
    },
    { headers },
  );
}

export const handle = { i18n: ["common"] };

export function Layout({ children }: { children: ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  const nonce = useNonce();
  const { t } = useTranslation();
  const title = useDocumentTitle();
  const language = root?.language ?? fallbackLanguage;
  useChangeLanguage(language);
  return (
    <html lang={language} dir="ltr" data-i18n-version={root?.i18nVersion}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0f766e" />
        <title>{title}</title>
        <Meta />
        <Links />
      </head>
      <body className="min-h-dvh">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-lg focus:bg-white focus:p-3"
        >
          {t("skipToContent")}
        </a>
        <PendingBar />
        {root?.demoMode ? (
          <p className="bg-amber-100 px-4 py-1.5 text-center text-sm text-amber-950">{t("demoBanner")}</p>
        ) : null}
        <Toaster toast={root?.toast ?? null} />
        <HoneypotProvider
          {...(root?.honeypotInputProps ?? {
            nameFieldName: "name__confirm",
            validFromFieldName: null,
            encryptedValidFrom: "",
          })}
        >
          {children}
        </HoneypotProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

function PendingBar() {
  const navigation = useNavigation();
  if (navigation.state === "idle") return null;
  return <div aria-hidden className="fixed inset-x-0 top-0 z-50 h-1 animate-pulse bg-brand-600" />;
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  return <RouteErrorPage error={useRouteError()} />;
}
