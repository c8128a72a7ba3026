import { useTranslation } from "react-i18next";
import { ComingSoon } from "~/platform/ui/coming-soon";
import { PageHeader } from "~/platform/ui/page-header";

export default function SitterProfileSetup() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t("pages.sitterSetup.title")} backTo="/" />
      <ComingSoon what={t("pages.sitterSetup.coming")} />
    </>
  );
}
