import { parseWithZod } from "@conform-to/zod/v4";
import { FormStrategy } from "remix-auth-form";
import type { SubmissionResult } from "@conform-to/react";
import type { User } from "~db/schema";
import { verifyLogin } from "./accounts.server";
import { knownDevicesOf } from "./known-devices.server";
import { loginSchema } from "./schema";

export type LoginOutcome =
  | { status: "signed-in"; user: User; redirectTo: string | undefined }
  | { status: "rejected"; reply: SubmissionResult<string[]>; httpStatus: 400 | 429; unconfirmed?: User };

/**
 * The sign-in form, read by remix-auth's form strategy. The strategy is made for each request, so
 * that the check knows the client's address (from the load context) besides the browser's cookies.
 */
export function authenticate(request: Request, clientAddress: string): Promise<LoginOutcome> {
  return new FormStrategy<LoginOutcome>(async ({ form, request: sent }): Promise<LoginOutcome> => {
    const submission = parseWithZod(form, { schema: loginSchema });
    if (submission.status !== "success") {
      return { status: "rejected", reply: submission.reply({ hideFields: ["password"] }), httpStatus: 400 };
    }
    const { email, password, redirectTo } = submission.value;
    const result = await verifyLogin(email, password, { address: clientAddress, devices: await knownDevicesOf(sent) });
    if (result.status === "ok") return { status: "signed-in", user: result.user, redirectTo };
    if (result.status === "wait") {
      return {
        status: "rejected",
        reply: submission.reply({ formErrors: ["auth:login.wait"], hideFields: ["password"] }),
        httpStatus: 429,
      };
    }
    if (result.status === "unconfirmed") {
      return {
        status: "rejected",
        reply: submission.reply({ formErrors: ["auth:login.unconfirmed"], hideFields: ["password"] }),
        httpStatus: 400,
        unconfirmed: result.user,
      };
    }
    if (result.status === "suspended") {
      return {
        status: "rejected",
        reply: submission.reply({ formErrors: ["safety:suspended.signIn"], hideFields: ["password"] }),
        httpStatus: 400,
      };
    }
    return {
      status: "rejected",
      reply: submission.reply({ formErrors: ["auth:login.invalid"], hideFields: ["password"] }),
      httpStatus: 400,
    };
  }).authenticate(request);
}
