import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useRouteLoaderData } from "@remix-run/react";
import { requireUser } from "~/platform/session.server";
import { BottomNav } from "~/platform/ui/bottom-nav";
import type { loader as rootLoader } from "~/root";

/** Every screen behind sign-in: a signed-out visitor is sent to /auth and brought back after. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

export default function AppLayout() {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  return (
    <>
      <main id="main" className="mx-auto min-h-dvh max-w-md pb-24">
        <Outlet />
      </main>
      <BottomNav unreadNotifications={root?.unreadCount ?? 0} unreadMessages={0} />
    </>
  );
}
