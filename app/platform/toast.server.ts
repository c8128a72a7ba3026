import { createCookie, redirect } from "@remix-run/node";
import { z } from "./validation";
import { cookiesAreSecure, env } from "./env.server";

const toastSchema = z.object({
  type: z.enum(["success", "error", "info"]),
  title: z.string(),
  description: z.optional(z.string()),
  values: z.optional(z.record(z.string(), z.union([z.string(), z.number()]))),
});
export type Toast = z.infer<typeof toastSchema>;

const toastCookie = createCookie("toast", {
  httpOnly: true,
  sameSite: "lax",
  secure: cookiesAreSecure,
  path: "/",
  secrets: [env.sessionSecret],
  maxAge: 60,
});

export async function toastHeader(toast: Toast): Promise<string> {
  return toastCookie.serialize(toast);
}

export async function redirectWithToast(url: string, toast: Toast, init: ResponseInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await toastHeader(toast));
  return redirect(url, { ...init, headers });
}

export async function takeToast(request: Request): Promise<{ toast: Toast | null; clearCookie: string | null }> {
  const value: unknown = await toastCookie.parse(request.headers.get("Cookie"));
  if (!value) return { toast: null, clearCookie: null };
  const parsed = toastSchema.safeParse(value);
  return {
    toast: parsed.success ? parsed.data : null,
    clearCookie: await toastCookie.serialize("", { maxAge: 0 }),
  };
}
