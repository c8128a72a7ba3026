import type { LoaderFunctionArgs } from "@remix-run/node";
import type { ReactNode } from "react";
import { Outlet, useMatches, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { unreadMessageCount } from "~/features/messages/index.server";
import { NotificationSound } from "~/features/notifications";
import { LiveUpdates } from "~/platform/events/live-updates";
import { requireUser } from "~/platform/session.server";
import { BottomNav } from "~/platform/ui/bottom-nav";
import { RouteErrorPage } from "~/platform/ui/not-found";
import type { loader as rootLoader } from "~/root";
import { flag } from "~/platform/db.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { unreadMessages: await unreadMessageCount(user.id), soundsEnabled: flag.read(user.sounds_enabled) };
}

function Shell({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const layout = useRouteLoaderData<typeof loader>("routes/app-layout");
  return (
    <>
      <div className={`mx-auto min-h-dvh pb-24 ${wide ? "max-w-5xl" : "max-w-md"}`}>{children}</div>
      <BottomNav unreadNotifications={root?.unreadCount ?? 0} unreadMessages={layout?.unreadMessages ?? 0} />
      <LiveUpdates />
      <NotificationSound
        unread={(root?.unreadCount ?? 0) + (layout?.unreadMessages ?? 0)}
        enabled={layout?.soundsEnabled ?? false}
      />
    </>
  );
}

export default function AppLayout() {
  const wide = useMatches().some((match) => (match.handle as { wide?: boolean } | undefined)?.wide);
  return (
    <Shell wide={wide}>
      <main id="main">
        <Outlet />
      </main>
    </Shell>
  );
}

export function ErrorBoundary() {
  return (
    <Shell>
      <RouteErrorPage error={useRouteError()} />
    </Shell>
  );
}
