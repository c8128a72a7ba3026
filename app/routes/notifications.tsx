import { useTranslation } from "react-i18next";
import { ComingSoon } from "~/platform/ui/coming-soon";
import { PageHeader } from "~/platform/ui/page-header";

export default function Notifications() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t("pages.notifications.title")} />
      <ComingSoon what={t("pages.notifications.coming")} />
    </>
  );
}
