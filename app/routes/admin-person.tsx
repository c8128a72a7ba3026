import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { PersonPage, suspendSchema } from "~/features/admin";
import { liftSuspension, personDetail, suspendPerson } from "~/features/admin/index.server";
import { formDataOf } from "~/platform/forms.server";
import { requireAdmin } from "~/platform/operator.server";
import { titleFrom } from "~/platform/page-title";
import { redirectWithToast } from "~/platform/toast.server";

export const handle = {
  i18n: ["admin", "safety", "bookings", "disputes"],
  title: titleFrom<typeof loader>(({ detail }) => detail.person.name),
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const detail = await personDetail(params.userId ?? "");
  if (!detail) throw new Response("Not found", { status: 404 });
  return { detail };
}

const REFUSALS = {
  self: "admin:errors.self",
  already: "admin:errors.alreadySuspended",
  "not-suspended": "admin:errors.notSuspended",
} as const;

export async function action({ request, params }: ActionFunctionArgs) {
  const operator = await requireAdmin(request);
  const userId = params.userId ?? "";
  const submission = parseWithZod(await formDataOf(request), { schema: suspendSchema });
  if (submission.status !== "success") {
    const error = Object.values(submission.error ?? {}).flat()[0] ?? "admin:errors.reasonRequired";
    return data({ error }, { status: 400 });
  }
  const { intent, reason } = submission.value;
  const here = `/admin/people/${encodeURIComponent(userId)}`;
  if (intent === "suspend") {
    const result = await suspendPerson(operator.id, userId, reason);
    if (result.status === "not-found") throw new Response("Not found", { status: 404 });
    if (result.status !== "suspended") return data({ error: REFUSALS[result.status] }, { status: 400 });
    return redirectWithToast(here, {
      type: "success",
      title: "admin:toast.suspended",
      values: { n: result.closedBookings.length },
    });
  }
  const result = await liftSuspension(operator.id, userId, reason);
  if (result === "not-found") throw new Response("Not found", { status: 404 });
  if (result !== "lifted") return data({ error: REFUSALS[result] }, { status: 400 });
  return redirectWithToast(here, { type: "success", title: "admin:toast.lifted" });
}

export default function AdminPerson() {
  const { detail } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  return <PersonPage detail={detail} error={answer?.error} />;
}
