import { createECDH, randomBytes, randomUUID } from "node:crypto";
import { unsubscribeToken } from "~/platform/unsubscribe.server";
import { PASSWORD, pushEndpoint, type Forms } from "./form";

/** Signing up and in, settings, push, calendars, unsubscribing. */
export const ACCOUNT_FORMS: Forms = {
  "routes/auth.tsx": [
    {
      name: "sign-up",
      who: "anonymous",
      url: () => "/auth",
      fields: (w) => [
        ["intent", "signup"],
        ["role", "owner"],
        ["name", "Ana"],
        ["city", "Madrid"],
        ["postalCode", "28004"],
        ["phone", "+34 600 000 000"],
        ["email", `${randomUUID()}@example.com`],
        ["password", PASSWORD],
        ...w.honeypot,
      ],
    },
    {
      name: "login",
      who: "anonymous",
      url: () => "/auth",
      fields: (w) => [
        ["intent", "login"],
        ["email", w.owner.email],
        ["password", PASSWORD],
        ["redirectTo", "/profile"],
        ...w.honeypot,
      ],
    },
    {
      name: "resend confirmation",
      who: "anonymous",
      url: () => "/auth",
      fields: (w) => [["intent", "resend"], ["email", w.owner.email], ...w.honeypot],
    },
  ],
  "routes/auth-callback.tsx": [
    {
      name: "confirm email",
      who: "anonymous",
      url: () => "/auth/callback",
      fields: (w) => [["token", w.confirmToken]],
    },
  ],
  "routes/forgot-password.tsx": [
    {
      name: "forgot password",
      who: "anonymous",
      url: () => "/forgot-password",
      fields: (w) => [["email", w.owner.email], ...w.honeypot],
    },
  ],
  "routes/reset-password.tsx": [
    {
      name: "reset password with a token",
      who: "anonymous",
      url: () => "/reset-password",
      fields: (w) => [
        ["token", w.resetToken],
        ["password", PASSWORD],
        ["confirmPassword", PASSWORD],
      ],
    },
    {
      name: "change password signed in",
      who: "owner",
      url: () => "/auth/reset-password",
      fields: () => [
        ["currentPassword", PASSWORD],
        ["password", PASSWORD],
        ["confirmPassword", PASSWORD],
      ],
    },
  ],
  "routes/logout.tsx": [{ name: "log out", who: "owner", url: () => "/logout", fields: () => [] }],
  "routes/settings-language.tsx": [
    {
      name: "language",
      who: "owner",
      url: () => "/settings/language",
      fields: () => [
        ["language", "es"],
        ["redirectTo", "/profile?lng=en"],
      ],
    },
  ],
  "routes/dev-clock.ts": [
    {
      name: "dev clock",
      who: "anonymous",
      url: () => "/dev/clock",
      fields: () => [
        ["reset", "true"],
        ["advanceMinutes", "0"],
      ],
    },
  ],
  "routes/settings.tsx": [
    {
      name: "change email",
      who: "owner",
      url: () => "/settings",
      fields: () => [
        ["intent", "change-email"],
        ["newEmail", `${randomUUID()}@example.com`],
        ["password", PASSWORD],
      ],
    },
    {
      name: "notification preferences",
      who: "owner",
      url: () => "/settings",
      fields: () => [
        ["intent", "notifications"],
        ["messages", "email"],
        ["bookings", "in-app"],
        ["reviews", "email"],
        ["marketing", "none"],
      ],
    },
    {
      name: "time zone",
      who: "owner",
      url: () => "/settings",
      fields: () => [
        ["intent", "time-zone"],
        ["timeZone", "Europe/Paris"],
      ],
    },
    { name: "data export", who: "owner", url: () => "/settings", fields: () => [["intent", "export"]] },
    {
      name: "delete account",
      who: "owner",
      url: () => "/settings",
      fields: () => [
        ["intent", "delete-account"],
        ["password", PASSWORD],
      ],
    },
  ],
  "routes/settings-push.ts": [
    {
      name: "turn on push for this device",
      who: "both",
      url: () => "/settings/push",
      fields: () => [
        ["intent", "subscribe"],
        ["endpoint", pushEndpoint()],
        ["p256dh", createECDH("prime256v1").generateKeys("base64url")],
        ["auth", randomBytes(16).toString("base64url")],
      ],
    },
    {
      name: "turn off push for this device",
      who: "both",
      url: () => "/settings/push",
      fields: () => [
        ["intent", "unsubscribe"],
        ["endpoint", pushEndpoint()],
      ],
    },
    {
      name: "send a test push",
      who: "both",
      url: () => "/settings/push",
      fields: () => [
        ["intent", "test"],
        ["endpoint", pushEndpoint()],
      ],
    },
  ],
  "routes/settings-calendar.ts": [
    {
      name: "make a calendar address",
      who: "both",
      url: () => "/settings/calendar",
      fields: () => [["intent", "renew"]],
    },
    {
      name: "turn off the calendar address",
      who: "both",
      url: () => "/settings/calendar",
      fields: () => [["intent", "stop"]],
    },
  ],
  "routes/settings-email-confirm.tsx": [
    {
      name: "confirm email change",
      who: "anonymous",
      url: () => "/settings/email/confirm",
      fields: (w) => [["token", w.emailChangeToken]],
    },
  ],
  "routes/unsubscribe.tsx": [
    {
      name: "unsubscribe",
      who: "anonymous",
      url: () => "/unsubscribe",
      fields: (w) => [["token", unsubscribeToken(w.owner.id, "bookings")]],
    },
    {
      name: "one-click unsubscribe",
      who: "anonymous",
      url: (w) => `/unsubscribe?token=${encodeURIComponent(unsubscribeToken(w.owner.id, "reviews"))}`,
      fields: () => [["List-Unsubscribe", "One-Click"]],
    },
  ],
};
