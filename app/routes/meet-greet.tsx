import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { firstBookingPath } from "~/features/bookings/index.server";
import { actOnMeetGreet, meetGreetRefusalReply, meetGreetView } from "~/features/meet-greets/index.server";
import { ProposalFields, loadMeetGreetSchemas, moveSchema } from "~/features/meet-greets";
import { now } from "~/platform/clock.server";
import { dateTimeFormat } from "~/platform/format";
import { useSchemaValidation } from "~/platform/forms";
import { constraintOf, formDataOf } from "~/platform/forms.server";
import { languageOf } from "~/platform/i18n.server";
import { titleFrom } from "~/platform/page-title";
import { requireUser } from "~/platform/session.server";
import { instantAt, wallClockIn } from "~/platform/time";
import { redirectWithToast } from "~/platform/toast.server";
import { FormError } from "~/platform/ui/field";
import { PageHeader } from "~/platform/ui/page-header";
import { SubmitButton } from "~/platform/ui/submit-button";

export const handle = {
  i18n: ["meetGreets", "bookings"],
  title: titleFrom<typeof loader>(({ meeting }, t) => t("meetGreets:page.title", { name: meeting.other.name })),
};

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const meeting = await meetGreetView(user.id, params.meetId ?? "");
  if (!meeting) throw new Response("Not found", { status: 404 });
  const when = dateTimeFormat(await languageOf(request), {
    dateStyle: "full",
    timeStyle: "short",
    timeZone: user.time_zone,
  }).format(new Date(meeting.startAt));
  return {
    meeting,
    bookPath: meeting.bookNext ? await firstBookingPath(user.id, meeting.other.id) : null,
    when,
    today: wallClockIn(meeting.timeZone, now()).day,
    constraints: constraintOf(moveSchema),
  };
}

const ANSWERS = { accept: "accepted", decline: "declined", cancel: "cancelled" } as const;

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const id = params.meetId ?? "";
  const form = await formDataOf(request);
  const intent = String(form.get("intent") ?? "");
  if (intent === "accept" || intent === "decline" || intent === "cancel") {
    const result = await actOnMeetGreet(user, id, { type: intent });
    if (!result.ok && result.refusal === "notFound") throw new Response("Not found", { status: 404 });
    return redirectWithToast(
      `/meet/${encodeURIComponent(id)}`,
      result.ok
        ? { type: "success", title: `meetGreets:toast.${ANSWERS[intent]}` }
        : { type: "error", title: "meetGreets:errors.wrongState" },
    );
  }
  const meeting = await meetGreetView(user.id, id);
  if (!meeting) throw new Response("Not found", { status: 404 });
  const submission = parseWithZod(form, { schema: moveSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const { day, time, place, placeNote } = submission.value;
  const startAt = instantAt(meeting.timeZone, day, time).toISOString();
  const result = await actOnMeetGreet(user, id, { type: "move", proposal: { startAt, place, placeNote } });
  if (!result.ok) return data(submission.reply(meetGreetRefusalReply(result.refusal)), { status: 400 });
  return redirectWithToast(`/meet/${encodeURIComponent(id)}`, { type: "success", title: "meetGreets:toast.moved" });
}

export default function MeetGreetPage() {
  const { t } = useTranslation("meetGreets");
  const { meeting, bookPath, when, today, constraints } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "meet-greet-move",
    ...useSchemaValidation("meet-greet-move", () => loadMeetGreetSchemas().then((schemas) => schemas.moveSchema)),
    lastResult,
    defaultValue: { place: meeting.place },
    constraint: constraints,
  });
  const name = meeting.other.name;
  const button = (intent: "accept" | "decline" | "cancel", variant: "primary" | "secondary") => (
    <Form method="post" className="flex *:flex-1">
      <SubmitButton name="intent" value={intent} variant={variant}>
        {t(`page.${intent}`)}
      </SubmitButton>
    </Form>
  );
  return (
    <>
      <PageHeader title={t("page.title", { name })} backTo="/bookings" />
      <div className="space-y-6 px-4 pb-8">
        <section className="card space-y-2" aria-labelledby="meet-status">
          <h2 id="meet-status" className="font-semibold">
            {t(`status.${meeting.status}`)}
          </h2>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
            <dt className="text-stone-600">{t("page.when")}</dt>
            <dd>{when}</dd>
            <dt className="text-stone-600">{t("page.where")}</dt>
            <dd>
              {t(`places.${meeting.place}`)}
              {meeting.placeNote ? ` (${meeting.placeNote})` : null}
            </dd>
          </dl>
          <p className="text-stone-800">
            {meeting.status === "proposed"
              ? t(meeting.awaitsMe ? "page.awaitsYou" : "page.awaitsThem", { name })
              : meeting.status === "accepted"
                ? t(meeting.bookNext ? "page.over" : "page.accepted", { name })
                : null}
          </p>
          <p className="text-sm text-stone-700">{t("new.free")}</p>
        </section>
        {meeting.can.accept || meeting.can.decline || meeting.can.cancel ? (
          <div className="flex flex-wrap gap-3 *:flex-1">
            {meeting.can.accept ? button("accept", "primary") : null}
            {meeting.can.decline ? button("decline", "secondary") : null}
            {meeting.can.cancel && !meeting.can.decline ? button("cancel", "secondary") : null}
          </div>
        ) : null}
        {bookPath ? (
          <Link to={bookPath} className="btn btn-primary w-full">
            {t("page.bookNext", { name })}
          </Link>
        ) : null}
        {meeting.can.move ? (
          <Form method="post" {...getFormProps(form)} noValidate className="space-y-4">
            <h2 className="text-lg font-bold">{t("page.moveTitle")}</h2>
            <FormError form={form} />
            <ProposalFields fields={fields} today={today} timeZone={meeting.timeZone} />
            <SubmitButton variant="secondary" className="w-full">
              {t("page.moveSend")}
            </SubmitButton>
          </Form>
        ) : null}
      </div>
    </>
  );
}
