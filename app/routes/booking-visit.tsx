import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CarePlanDetails } from "~/features/care";
import { CHAT_FILE_MAX_BYTES } from "~/features/media";
import { readImageUpload } from "~/features/media/index.server";
import {
  CheckOutForm,
  EarlierUpdates,
  Checklist,
  DetailsForm,
  MediaForm,
  ReportExtras,
  VisitStatus,
  WalkForms,
  WalkSummary,
  detailsSchema,
  routeSchema,
  tickSchema,
  typedWalkSchema,
  type VisitReplies,
} from "~/features/visits";
import {
  applyVisitEvent,
  storeVisitMedia,
  visitBookingOf,
  visitPage,
  walkFromRoute,
  walkFromTyped,
  type VisitCommand,
} from "~/features/visits/index.server";
import { constraintOf, formDataOf } from "~/platform/forms.server";
import { languageOf } from "~/platform/i18n.server";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { PageHeader } from "~/platform/ui/page-header";

export const handle = { i18n: ["care", "bookings"], uploads: true, title: "care:visit.pageTitle" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const page = await visitPage(user, params.bookingId ?? "", await languageOf(request));
  if (!page) throw new Response("Not found", { status: 404 });
  return { page, constraints: { details: constraintOf(detailsSchema), walk: constraintOf(typedWalkSchema) } };
}

const SUCCESS: Record<string, string> = {
  "check-in": "care:done.checkedIn",
  tick: "care:done.ticked",
  details: "care:done.details",
  walk: "care:done.walk",
  media: "care:done.media",
  "check-out": "care:done.checkedOut",
};

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const bookingId = params.bookingId ?? "";
  // Who asks comes first: nobody else's request is read any further.
  if (!(await visitBookingOf(user.id, bookingId))) throw new Response("Not found", { status: 404 });
  const here = `/bookings/${bookingId}/visit`;
  const refused = (refusal: string) => redirectWithToast(here, { type: "error", title: `care:refusals.${refusal}` });

  if (/^multipart\/form-data/i.test(request.headers.get("Content-Type") ?? "")) {
    const upload = await readImageUpload(request, { field: "media", maxFiles: 1, maxFileBytes: CHAT_FILE_MAX_BYTES });
    if ("error" in upload)
      return data<VisitReplies>(
        { error: upload.error === "media.tooLarge" ? "care:refusals.tooLarge" : "care:refusals.invalidMedia" },
        { status: 400 },
      );
    const file = upload.images[0];
    if (upload.formData.get("intent") !== "media" || !file)
      return data<VisitReplies>({ error: "care:refusals.invalidMedia" }, { status: 400 });
    const result = await storeVisitMedia(bookingId, user.id, file, upload.declaredTypes[0] ?? "");
    if (!result.ok) {
      if (result.refusal === "notFound") throw new Response("Not found", { status: 404 });
      return data<VisitReplies>({ error: `care:refusals.${result.refusal}` }, { status: 400 });
    }
    return redirectWithToast(here, { type: "success", title: SUCCESS.media! });
  }

  const formData = await formDataOf(request);
  const intent = String(formData.get("intent") ?? "");
  let command: VisitCommand;
  if (intent === "check-in" || intent === "check-out") command = { type: intent };
  else if (intent === "tick") {
    const parsed = tickSchema.safeParse(Object.fromEntries(formData));
    if (!parsed.success) return refused("unknownItem");
    command = { type: "tick", position: parsed.data.position };
  } else if (intent === "details") {
    const submission = parseWithZod(formData, { schema: detailsSchema });
    if (submission.status !== "success")
      return data<VisitReplies>({ form: "details", reply: submission.reply() }, { status: 400 });
    command = { type: "details", quickNotes: submission.value.quickNotes, note: submission.value.note };
  } else if (intent === "walk" && formData.has("route")) {
    const parsed = routeSchema.safeParse(Object.fromEntries(formData));
    const walk = parsed.success ? walkFromRoute(parsed.data.route) : null;
    if (!walk) return refused("badRoute");
    command = { type: "walk", walk };
  } else if (intent === "walk") {
    const submission = parseWithZod(formData, { schema: typedWalkSchema });
    const walk =
      submission.status === "success"
        ? walkFromTyped(submission.value.distanceKm, submission.value.durationMinutes)
        : null;
    if (submission.status !== "success" || !walk)
      return data<VisitReplies>({ form: "walk", reply: submission.reply() }, { status: 400 });
    command = { type: "walk", walk };
  } else throw new Response("Bad request", { status: 400 });

  const result = await applyVisitEvent(bookingId, user.id, command);
  if (!result.ok) {
    if (result.refusal === "notFound") throw new Response("Not found", { status: 404 });
    return refused(result.refusal);
  }
  return redirectWithToast(here, { type: "success", title: SUCCESS[intent]! });
}

export default function BookingVisit() {
  const { t } = useTranslation("care");
  const { page, constraints } = useLoaderData<typeof loader>();
  const replies = useActionData<typeof action>() as VisitReplies | undefined;
  const { visit, can, booking } = page;
  return (
    <>
      <PageHeader title={t("visit.heading", { pet: booking.petName })} backTo="/bookings" />
      <div className="space-y-4 px-4 pb-6">
        <p className="text-stone-700">
          {t(booking.as === "owner" ? "visit.withSitter" : "visit.forOwner", {
            name: booking.otherName,
            when: booking.when,
          })}{" "}
          · {t(`bookings:status.${booking.status}`)}
        </p>
        <VisitStatus page={page} />
        {visit ? <Checklist visit={visit} canTick={can.act} /> : null}
        {visit?.walk ? <WalkSummary walk={visit.walk} /> : null}
        {visit && can.walk ? (
          <WalkForms lastResult={replies?.form === "walk" ? replies.reply : undefined} constraint={constraints.walk} />
        ) : null}
        {visit && can.act ? (
          <DetailsForm
            visit={visit}
            lastResult={replies?.form === "details" ? replies.reply : undefined}
            constraint={constraints.details}
          />
        ) : null}
        {visit && can.media ? <MediaForm error={replies?.error} /> : null}
        {visit ? <ReportExtras visit={visit} /> : null}
        {can.checkOut ? <CheckOutForm daily={page.daily} /> : null}
        <EarlierUpdates updates={page.earlier} />
        {page.plans ? (
          page.plans.map((pet, index) => (
            <CarePlanDetails key={index} plan={pet.plan} petName={pet.petName} index={index} />
          ))
        ) : booking.as === "sitter" ? (
          <p className="card text-stone-700">
            {page.planOpens ? t("plan.opensAt", { when: page.planOpens }) : t("plan.closed")}
          </p>
        ) : null}
      </div>
    </>
  );
}
