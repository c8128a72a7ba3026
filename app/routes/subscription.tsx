import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { removeCard, setDefaultCard, actOnSubscription, subscriptionPage } from "~/features/subscriptions/index.server";
import { MySubscription, PlanList, manageSchema, TABS, type SubscriptionTab } from "~/features/subscriptions";
import { formDataOf } from "~/platform/forms.server";
import { longDay } from "~/platform/format";
import { languageOf } from "~/platform/i18n.server";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { PageHeader } from "~/platform/ui/page-header";
import { TabLinks } from "~/platform/ui/tab-links";

export const handle = { i18n: ["subscription"], wide: true, title: "subscription:title" };

const MINE = "/subscription?tab=mine";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const asked = new URL(request.url).searchParams.get("tab");
  const tab: SubscriptionTab = TABS.find((item) => item === asked) ?? "plans";
  return { tab, ...(await subscriptionPage(user, await languageOf(request))) };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const parsed = manageSchema.safeParse(Object.fromEntries(await formDataOf(request)));
  if (!parsed.success) throw data("Bad request", { status: 400 });
  const input = parsed.data;
  const day = longDay(await languageOf(request), user.time_zone);

  if (input.intent === "set-default" || input.intent === "remove-card") {
    const result =
      input.intent === "set-default"
        ? await setDefaultCard(user.id, input.methodId)
        : await removeCard(user.id, input.methodId);
    if (!result.ok && result.reason === "notFound") throw data("Not found", { status: 404 });
    if (!result.ok)
      return redirectWithToast(MINE, {
        type: "error",
        title:
          result.reason === "unavailable"
            ? "subscription:errors.processorUnavailable"
            : "subscription:errors.cardInUse",
      });
    return redirectWithToast(MINE, {
      type: "success",
      title: input.intent === "set-default" ? "subscription:toasts.defaultSet" : "subscription:toasts.cardRemoved",
    });
  }

  const result = await actOnSubscription(user.id, input.subscriptionId, input.intent);
  if (!result.ok && result.refusal === "notFound") throw data("Not found", { status: 404 });
  if (!result.ok) {
    const title =
      result.refusal === "unavailable"
        ? "subscription:errors.processorUnavailable"
        : input.intent === "cancel"
          ? "subscription:errors.cancel"
          : input.intent === "reactivate"
            ? "subscription:errors.reactivate"
            : result.refusal === "chargePending"
              ? "subscription:errors.chargePending"
              : "subscription:errors.change";
    return redirectWithToast(MINE, { type: "error", title });
  }
  const subscription = result.subscription;
  switch (input.intent) {
    case "cancel":
      return redirectWithToast(MINE, {
        type: "success",
        title: "subscription:toasts.cancelled",
        description: subscription.ended_at ? undefined : "subscription:toasts.cancelledBody",
        values: { date: day(subscription.current_period_end) },
      });
    case "reactivate":
      return redirectWithToast(MINE, { type: "success", title: "subscription:toasts.reactivated" });
    case "keep-plan":
      return redirectWithToast(MINE, { type: "success", title: "subscription:toasts.keptPlan" });
    case "retry":
      if (subscription.status === "active")
        return redirectWithToast(MINE, { type: "success", title: "subscription:toasts.retried" });
      return redirectWithToast(MINE, {
        type: "error",
        title: "subscription:errors.retryFailed",
        description: `subscription:paymentErrors.${subscription.last_payment_error ?? "processing_error"}`,
      });
  }
}

export default function SubscriptionPage() {
  const { t } = useTranslation("subscription");
  const page = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("title")} backTo="/dashboard" />
      <div className="space-y-5 px-4 pb-8">
        <TabLinks
          label={t("tabs.label")}
          tabs={TABS}
          current={page.tab}
          hrefOf={(item) => (item === "plans" ? "/subscription" : MINE)}
          labelOf={(item) => t(`tabs.${item}`)}
          className="mx-auto max-w-md"
        />
        {page.tab === "plans" ? (
          <PlanList plans={page.plans} subscription={page.subscription} />
        ) : (
          <MySubscription {...page} />
        )}
      </div>
    </>
  );
}
