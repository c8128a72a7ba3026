import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { deleteSlot, describeSlot, findOwnSlot } from "~/features/availability/index.server";
import { languageOf } from "~/platform/i18n.server";
import { titleFrom } from "~/platform/page-title";
import { requireUser } from "~/platform/session.server";
import { redirectWithToast } from "~/platform/toast.server";
import { ConfirmPage } from "~/platform/ui/confirm-link";
import { PageHeader } from "~/platform/ui/page-header";

export const handle = {
  i18n: ["availability"],
  title: titleFrom<typeof loader>((_, t) => t("availability:delete.title")),
};

async function ownSlot(request: Request, slotId: string | undefined) {
  const user = await requireUser(request);
  const slot = await findOwnSlot(user.id, slotId ?? "");
  if (!slot) throw new Response("Not found", { status: 404 });
  const described = describeSlot(slot, user.time_zone, await languageOf(request));
  return { user, slot, described, back: `/availability?date=${described.day}` };
}

const notAvailable = { type: "error", title: "availability:delete.notAvailable" } as const;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { slot, described, back } = await ownSlot(request, params.slotId);
  if (slot.status !== "available") throw await redirectWithToast(back, notAvailable);
  return { back, date: described.date, range: described.range };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { user, slot, back } = await ownSlot(request, params.slotId);
  const result = await deleteSlot(user.id, slot.id);
  if (result === "not-found") throw new Response("Not found", { status: 404 });
  if (result === "not-available") return redirectWithToast(back, notAvailable);
  return redirectWithToast(back, { type: "success", title: "availability:delete.removed" });
}

export default function DeleteSlot() {
  const { t } = useTranslation("availability");
  const { back, date, range } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("delete.title")} backTo={back} />
      <ConfirmPage
        question={t("delete.question", { range })}
        detail={date}
        confirmLabel={t("delete.confirm")}
        cancelTo={back}
      />
    </>
  );
}
