/**
 * An amount in minor units (the contract's `amountMinor`, `priceMinor`) written for the reader's
 * locale in its currency: "£25.00", "25,00 €", "¥2,500". The currency's own number of decimals
 * decides the unit (JPY has none), so one minor unit is never misread as a hundredth.
 */
export function formatMoney(minor: number, currency: string, locale?: string): string {
  try {
    const format = new Intl.NumberFormat(locale, { style: 'currency', currency });
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(minor / 10 ** digits);
  } catch {
    // An unknown currency code: the number and the code, never a crash.
    return `${(minor / 100).toFixed(2)} ${currency}`;
  }
}
