import { dateTimeFormat } from "~/platform/format";
import type { Language } from "~/platform/i18n";
import { translatorFor } from "~/platform/i18n.server";
import { LEGAL_TEXTS_UPDATED, legalDocument, type LegalDocumentName } from "./documents.server";
import type { ImprintData, LegalPageData } from "./legal-page";
import { imprintOf, type Imprint, type OperatorField } from "./operator.server";

const updatedOn = (language: Language) =>
  dateTimeFormat(language, { dateStyle: "long", timeZone: "UTC" }).format(new Date(`${LEGAL_TEXTS_UPDATED}T12:00:00Z`));

/** Everything a legal page shows, in the asker's language, written on the server. */
export async function legalPage(
  name: LegalDocumentName,
  language: Language,
  imprint: Imprint = imprintOf(),
): Promise<LegalPageData> {
  const t = await translatorFor(language, "legal");
  const detail = (field: OperatorField) => imprint.details.find((entry) => entry.field === field)?.value;
  // The operator's name and address as the imprint gives them, or a pointer to the imprint where one is missing.
  const operator = detail("name") ?? t("operatorFallback");
  const contact = detail("email") ?? t("contactFallback");
  return {
    title: t(`titles.${name}`),
    updated: updatedOn(language),
    document: await legalDocument(name, language, { operator, contact }),
  };
}

const KIND: Partial<Record<OperatorField, "email" | "phone">> = { email: "email", phone: "phone" };

export async function imprintPage(language: Language, imprint: Imprint = imprintOf()): Promise<ImprintData> {
  const t = await translatorFor(language, "legal-imprint");
  return {
    title: (await translatorFor(language, "legal"))("titles.imprint"),
    source: imprint.source,
    details: imprint.details.map(({ field, value }) => ({
      label: t(`fields.${field}`),
      value,
      kind: KIND[field] ?? "text",
    })),
    missing: imprint.missing.map((field) => t(`fields.${field}`)),
    text: {
      intro: t("intro"),
      example: t("example"),
      missing: t("missing"),
      detailsHeading: t("detailsHeading"),
      contactHeading: t("contactHeading"),
      contact: t("contact"),
    },
  };
}
