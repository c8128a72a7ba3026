export { ImprintPage, LegalDocumentPage } from "./legal-page";
export type { ImprintData, LegalPageData } from "./legal-page";
