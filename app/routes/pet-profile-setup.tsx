import { useTranslation } from "react-i18next";
import { ComingSoon } from "~/platform/ui/coming-soon";
import { PageHeader } from "~/platform/ui/page-header";

export default function PetProfileSetup() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t("pages.petSetup.title")} backTo="/profile" />
      <ComingSoon what={t("pages.petSetup.coming")} />
    </>
  );
}
