export { LEGAL_DOCUMENTS, LEGAL_TEXTS_UPDATED, legalDocument, legalDocumentSchema } from "./documents.server";
export type { LegalDocument, LegalDocumentName } from "./documents.server";
export { imprintOf, missingOperatorWarning } from "./operator.server";
export type { Imprint } from "./operator.server";
export { imprintPage, legalPage } from "./pages.server";
