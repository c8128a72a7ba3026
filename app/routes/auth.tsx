import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import {
  resendConfirmation,
  setupPathFor,
  signUp,
  authPageOf,
  authenticate,
  refusePublicForm,
  rememberAddress,
  rememberDevice,
} from "~/features/auth/index.server";
import {
  LoginScreen,
  SignupForm,
  SignupRoleStep,
  loginSchema,
  resendConfirmationSchema,
  signupSchema,
} from "~/features/auth";
import { constraintOf, formDataOf } from "~/platform/forms.server";
import { languageOf } from "~/platform/i18n.server";
import { titleFrom } from "~/platform/page-title";
import { safeRedirectTarget } from "~/platform/redirect.server";
import { getUser, startSession } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";

export const handle = {
  i18n: ["auth"],
  title: titleFrom<typeof loader>(({ mode, role }, t) =>
    t(
      mode === "login"
        ? "auth:login.submit"
        : role === "owner"
          ? "auth:signup.titleOwner"
          : role === "sitter"
            ? "auth:signup.titleSitter"
            : "auth:signup.title",
    ),
  ),
};

export async function loader({ request }: LoaderFunctionArgs) {
  const page = authPageOf(new URL(request.url));
  const user = await getUser(request);
  if (user) throw redirect(page.confirmed ? setupPathFor(user.role) : (page.redirectTo ?? "/dashboard"));
  return { ...page, constraints: { signup: constraintOf(signupSchema), login: constraintOf(loginSchema) } };
}

export async function action({ request, context }: ActionFunctionArgs) {
  // The sign-in strategy reads the body itself, so this reads a copy.
  const formData = await formDataOf(request.clone());
  const intent = formData.get("intent");
  const refusal = await refusePublicForm(formData, `auth:${context.clientAddress}`);
  if (refusal) {
    return data(
      { intent, reply: { status: "error" as const, error: { "": [refusal] } }, unconfirmedEmail: null },
      { status: 429 },
    );
  }

  if (intent === "signup") {
    const submission = parseWithZod(formData, { schema: signupSchema });
    if (submission.status !== "success") {
      return data(
        { intent, reply: submission.reply({ hideFields: ["password"] }), unconfirmedEmail: null },
        { status: 400 },
      );
    }
    const result = await signUp(submission.value, await languageOf(request));
    if (result.status === "weak") {
      return data(
        {
          intent,
          reply: submission.reply({ fieldErrors: { password: [result.problem] }, hideFields: ["password"] }),
          unconfirmedEmail: null,
        },
        { status: 400 },
      );
    }
    // A taken address gets the very same answer (its owner is told by email), so the form does not say who has an account.
    const remembered = await rememberAddress(request, submission.value.email);
    return redirectWithToast(
      "/auth?mode=login&sent=1",
      { type: "success", title: "auth:signup.sentTitle", description: "auth:signup.sentBody" },
      { headers: remembered ? { "Set-Cookie": remembered } : {} },
    );
  }

  if (intent === "resend") {
    const submission = parseWithZod(formData, { schema: resendConfirmationSchema });
    if (submission.status === "success") {
      await resendConfirmation(submission.value.email, await languageOf(request));
    }
    return redirectWithToast("/auth?mode=login&sent=1", {
      type: "success",
      title: "auth:signup.resentTitle",
      description: "auth:signup.sentBody",
    });
  }

  const outcome = await authenticate(request, context.clientAddress);
  if (outcome.status === "rejected") {
    const headers = new Headers();
    const { unconfirmed } = outcome;
    // The right password of an unconfirmed account: a browser of its owner, which may read its emails at /dev/outbox.
    if (unconfirmed) headers.append("Set-Cookie", await rememberDevice(request, unconfirmed.id));
    return data(
      { intent: "login", reply: outcome.reply, unconfirmedEmail: unconfirmed?.email ?? null },
      { status: outcome.httpStatus, headers },
    );
  }
  const headers = new Headers();
  headers.append("Set-Cookie", await startSession(outcome.user.id));
  headers.append("Set-Cookie", await rememberDevice(request, outcome.user.id));
  return redirect(safeRedirectTarget(outcome.redirectTo, "/dashboard"), { headers });
}

export default function Auth() {
  const { mode, role, confirmed, sent, redirectTo, constraints } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  if (mode === "login")
    return (
      <LoginScreen
        confirmed={confirmed}
        sent={sent}
        redirectTo={redirectTo}
        actionData={actionData}
        constraint={constraints.login}
      />
    );
  return role ? <SignupForm role={role} actionData={actionData} constraint={constraints.signup} /> : <SignupRoleStep />;
}
