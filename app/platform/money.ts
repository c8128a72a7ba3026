import { numberFormat } from "./format";

/** Money is integer cents in one currency, EUR, written the way the reader's language writes it. */
export const CURRENCY = "EUR";

export function formatMoney(cents: number, language: string): string {
  return numberFormat(language, { style: "currency", currency: CURRENCY }).format(cents / 100);
}
