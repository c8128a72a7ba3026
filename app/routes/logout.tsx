import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { endSession } from "~/platform/session.server";

/** Signing out is a POST (a GET never changes state); a visit here just goes back to the profile. */
export const loader = () => redirect("/profile");

export async function action({ request }: ActionFunctionArgs) {
  return redirect("/auth?mode=login", { headers: { "Set-Cookie": await endSession(request) } });
}
