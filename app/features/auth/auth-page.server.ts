import { safeRedirectTarget } from "~/platform/redirect.server";
import { parseSignupRole } from "./schema";

export function authPageOf(url: URL) {
  return {
    mode: url.searchParams.get("mode") === "signup" ? ("signup" as const) : ("login" as const),
    role: parseSignupRole(url.searchParams.get("role")),
    confirmed: url.searchParams.get("confirmed") === "true",
    sent: url.searchParams.get("sent") === "1",
    redirectTo: safeRedirectTarget(url.searchParams.get("redirectTo"), "") || undefined,
  };
}
