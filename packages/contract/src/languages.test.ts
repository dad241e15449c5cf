import { describe, expect, it } from 'vitest';
import { acceptedLanguages, pickLanguage } from './languages.ts';

describe('the language of a visitor', () => {
  it('takes the most preferred language we speak, by its primary subtag', () => {
    expect(pickLanguage(['de-DE', 'fr-CA', 'en'])).toBe('fr');
    expect(pickLanguage(['AR_eg'])).toBe('ar');
    expect(pickLanguage([null, undefined, 'xx'])).toBe('en');
    expect(pickLanguage([])).toBe('en');
  });

  it('reads an Accept-Language header by weight, then order', () => {
    expect(acceptedLanguages('en;q=0.5, ar-EG, fr;q=0.9, *;q=0.1, de;q=0')).toEqual([
      'ar-EG',
      'fr',
      'en',
    ]);
    expect(pickLanguage(acceptedLanguages('de, en;q=0.8, fr;q=0.9'))).toBe('fr');
    expect(acceptedLanguages(undefined)).toEqual([]);
  });
});
