/** Choices for company and queue forms, from the browser's own tables. */

export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

let zones: string[] | undefined;
export function timeZoneOptions(): string[] {
  zones ??= (() => {
    const list = Intl.supportedValuesOf('timeZone');
    const own = browserTimeZone();
    return list.includes(own) ? list : [own, ...list];
  })();
  return zones;
}

let currencies: string[] | undefined;
export function currencyOptions(): string[] {
  currencies ??= Intl.supportedValuesOf('currency');
  return currencies;
}

/** Price in minor units from what a person types ("12.50" EUR -> 1250). */
export function toMinor(amount: number | string | null | undefined): number | null {
  if (amount === '' || amount === null || amount === undefined) return null;
  const value = typeof amount === 'number' ? amount : Number(amount);
  if (!Number.isFinite(value)) return null;
  return Math.round(value * 100);
}

export function fromMinor(minor: number | null): number | string {
  return minor === null ? '' : minor / 100;
}
