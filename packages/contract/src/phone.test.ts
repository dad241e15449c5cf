import { describe, expect, it } from 'vitest';
import { countrySchema, toE164 } from './phone.ts';

describe('toE164', () => {
  it('reads a national number in the company country and answers E.164', () => {
    expect(toE164('07911 123456', 'GB')).toBe('+447911123456');
    expect(toE164('(202) 555-0143', 'US')).toBe('+12025550143');
    expect(toE164('020 7946 0321', 'GB')).toBe('+442079460321');
  });

  it('keeps an international number whatever the country', () => {
    expect(toE164('+1 202 555 0143', 'GB')).toBe('+12025550143');
    expect(toE164('0044 7911 123456', 'US')).toBe('+447911123456');
    expect(toE164('+44 20 7946 0321', 'XX')).toBe('+442079460321');
  });

  it('refuses what is not a valid phone number', () => {
    expect(toE164('12345', 'GB')).toBeNull();
    expect(toE164('abc', 'GB')).toBeNull();
    expect(toE164('077009007899', 'GB')).toBeNull();
    // A national number means nothing without a known country.
    expect(toE164('07911 123456', 'XX')).toBeNull();
  });
});

describe('countrySchema', () => {
  it('takes ISO codes libphonenumber knows, nothing else', () => {
    expect(countrySchema.safeParse('GB').success).toBe(true);
    expect(countrySchema.safeParse('gb').success).toBe(false);
    expect(countrySchema.safeParse('XX').success).toBe(false);
  });
});
