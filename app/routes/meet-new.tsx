import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import {
  meetGreetRefusalReply,
  meetableSitter,
  newProposalId,
  proposeMeetGreet,
} from "~/features/meet-greets/index.server";
import { ProposalFields, loadMeetGreetSchemas, proposalSchema } from "~/features/meet-greets";
import { isOwner } from "~/features/profiles/index.server";
import { useSchemaValidation } from "~/platform/forms";
import { constraintOf, formDataOf } from "~/platform/forms.server";
import { titleFrom } from "~/platform/page-title";
import { requireUser } from "~/platform/session.server";
import { now } from "~/platform/clock.server";
import { wallClockIn } from "~/platform/time";
import { redirectWithToast } from "~/platform/toast.server";
import { FormError } from "~/platform/ui/field";
import { PageHeader } from "~/platform/ui/page-header";
import { SubmitButton } from "~/platform/ui/submit-button";

export const handle = {
  i18n: ["meetGreets", "bookings"],
  title: titleFrom<typeof loader>(({ sitter }, t) => t("meetGreets:new.title", { name: sitter.name })),
};

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const sitter = isOwner(user.role)
    ? await meetableSitter(user.id, new URL(request.url).searchParams.get("sitterId") ?? "")
    : null;
  if (!sitter) throw new Response("Not found", { status: 404 });
  return {
    sitter,
    proposalId: newProposalId(),
    today: wallClockIn(sitter.timeZone, now()).day,
    constraints: constraintOf(proposalSchema),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await formDataOf(request), { schema: proposalSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await proposeMeetGreet(user, submission.value);
  if (!result.ok) return data(submission.reply(meetGreetRefusalReply(result.refusal)), { status: 400 });
  return redirectWithToast(`/meet/${result.meetGreet.id}`, { type: "success", title: "meetGreets:toast.proposed" });
}

export default function MeetNew() {
  const { t } = useTranslation("meetGreets");
  const { sitter, proposalId, today, constraints } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "meet-greet",
    ...useSchemaValidation("meet-greet", () => loadMeetGreetSchemas().then((schemas) => schemas.proposalSchema)),
    lastResult,
    defaultValue: { place: "owners_home" },
    constraint: constraints,
  });
  return (
    <>
      <PageHeader title={t("new.title", { name: sitter.name })} backTo={`/users/${sitter.id}`} />
      <div className="space-y-6 px-4 pb-8">
        <p className="text-stone-800">{t("new.intro", { name: sitter.name })}</p>
        <Form method="post" {...getFormProps(form)} noValidate className="space-y-6">
          <FormError form={form} />
          <input type="hidden" name="id" value={proposalId} />
          <input type="hidden" name="sitterId" value={sitter.id} />
          <ProposalFields fields={fields} today={today} timeZone={sitter.timeZone} />
          <SubmitButton className="w-full">{t("new.send")}</SubmitButton>
          <p className="text-center text-sm text-stone-700">{t("new.free")}</p>
        </Form>
      </div>
    </>
  );
}
