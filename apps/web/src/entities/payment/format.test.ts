import { describe, expect, it } from 'vitest';
import { formatMoney } from './format.ts';

describe('formatMoney', () => {
  it("writes minor units in the currency's own decimals, for the locale", () => {
    expect(formatMoney(2500, 'GBP', 'en-GB')).toBe('£25.00');
    expect(formatMoney(2500, 'EUR', 'de-DE')).toBe('25,00\u00a0€');
    expect(formatMoney(2500, 'JPY', 'en-US')).toBe('¥2,500');
  });

  it('falls back to the number and the code for an unknown currency', () => {
    expect(formatMoney(1234, 'XX', 'en')).toBe('12.34 XX');
  });
});
