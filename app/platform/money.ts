import { numberFormat } from "./format";

export const CURRENCY = "EUR";

export function formatMoney(cents: number, language: string): string {
  return numberFormat(language, { style: "currency", currency: CURRENCY }).format(cents / 100);
}
