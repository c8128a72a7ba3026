import { index, layout, route, type RouteConfig } from "@remix-run/route-config";

export default [
  index("routes/index.tsx"),
  route("welcome", "routes/welcome.tsx"),
  route("select-role", "routes/select-role.tsx"),
  route("auth", "routes/auth.tsx"),
  route("auth/callback", "routes/auth-callback.tsx"),
  route("forgot-password", "routes/forgot-password.tsx"),
  route("reset-password", "routes/reset-password.tsx", { id: "reset-password" }),
  route("auth/reset-password", "routes/reset-password.tsx", { id: "auth-reset-password" }),
  route("logout", "routes/logout.tsx"),
  route("settings/language", "routes/settings-language.tsx"),
  route("healthz", "routes/healthz.ts"),
  route("locales/:lng/:ns", "routes/locales.ts"),
  route("dev/outbox", "routes/dev-outbox.tsx"),
  route("dev/clock", "routes/dev-clock.ts"),
  layout("routes/app-layout.tsx", [
    route("dashboard", "routes/dashboard.tsx"),
    route("messages", "routes/messages.tsx"),
    route("bookings", "routes/bookings.tsx"),
    route("notifications", "routes/notifications.tsx"),
    route("profile", "routes/profile.tsx"),
    route("pet-profile-setup", "routes/pet-profile-setup.tsx"),
    route("sitter-profile-setup", "routes/sitter-profile-setup.tsx"),
  ]),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
