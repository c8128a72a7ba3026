import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { EmailChangeLanding, emailChangeTokenSchema, type EmailChangeLandingState as State } from "~/features/account";
import { checkEmailChangeToken, confirmEmailChange } from "~/features/account/index.server";
import { formDataOf } from "~/platform/forms.server";
import { getUser } from "~/platform/session.server";

export const handle = { i18n: ["settings"], title: "settings:confirmEmail.title" };

const messageOf = (status: "expired" | "invalid" | "taken") =>
  status === "expired" ? "confirmEmail.expired" : status === "taken" ? "confirmEmail.taken" : "confirmEmail.invalid";

/** Opening the link changes nothing (mail scanners open links too); the button's POST does. */
export async function loader({ request }: LoaderFunctionArgs): Promise<State> {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const check = await checkEmailChangeToken(token);
  if (check.status !== "valid") return { state: "error", message: messageOf(check.status) };
  return { state: "ready", token, newEmail: check.newEmail };
}

export async function action({ request }: ActionFunctionArgs) {
  const submission = parseWithZod(await formDataOf(request), { schema: emailChangeTokenSchema });
  if (submission.status !== "success")
    return data<State>({ state: "error", message: "confirmEmail.invalid" }, { status: 400 });
  const result = await confirmEmailChange(submission.value.token);
  if (result.status !== "changed")
    return data<State>({ state: "error", message: messageOf(result.status) }, { status: 400 });
  const user = await getUser(request);
  return data<State>({ state: "done", newEmail: result.newEmail, signedIn: user?.id === result.userId });
}

export default function ConfirmEmailChange() {
  const loaded = useLoaderData<typeof loader>();
  return <EmailChangeLanding current={useActionData<typeof action>() ?? loaded} />;
}
