import { useTranslation } from "react-i18next";
import { ComingSoon } from "~/platform/ui/coming-soon";
import { PageHeader } from "~/platform/ui/page-header";

export default function Messages() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t("pages.messages.title")} />
      <ComingSoon what={t("pages.messages.coming")} />
    </>
  );
}
