/**
 * Amounts travel in minor units (`amountMinor`, `priceMinor`) of an ISO 4217 currency. How many
 * decimals a currency has decides the unit (JPY none, GBP two), so one minor unit is never
 * misread as a hundredth: the one rule for both sides.
 */
export function currencyDigits(currency: string): number {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    return 2; // An unknown code: hundredths.
  }
}

/** "£25.00", "25,00 €", "¥2,500": minor units written for `locale` in the currency. */
export function formatMoney(minor: number, currency: string, locale?: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(
      minor / 10 ** currencyDigits(currency),
    );
  } catch {
    // An unknown currency code: the number and the code, never a crash.
    return `${(minor / 100).toFixed(2)} ${currency}`;
  }
}
