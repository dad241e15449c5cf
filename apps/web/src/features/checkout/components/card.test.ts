import { describe, expect, it } from 'vitest';
import { checkCard, formatCardNumber, formatCvc, formatExpiry, luhnValid } from './card.ts';

describe('card typing', () => {
  it('groups the number in fours and keeps digits only', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242-4242 42')).toBe('4242 4242 42');
    expect(formatCardNumber('4'.repeat(25))).toHaveLength(19 + 4);
  });

  it('writes the expiry as MM/YY and lets backspace remove the slash', () => {
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('12')).toBe('12/');
    expect(formatExpiry('1234')).toBe('12/34');
    expect(formatExpiry('12/345')).toBe('12/34');
    expect(formatExpiry('12', '12/')).toBe('12');
  });

  it('keeps at most four CVC digits', () => {
    expect(formatCvc('12a34 5')).toBe('1234');
  });
});

describe('card checks', () => {
  const now = new Date(2026, 10, 27);
  const good = { number: '4242 4242 4242 4242', expiry: '12/30', cvc: '123', name: 'Ada' };

  it('accepts a valid card, including this month as expiry', () => {
    expect(checkCard(good, now)).toEqual({});
    expect(checkCard({ ...good, expiry: '11/26' }, now)).toEqual({});
  });

  it('names each problem by field', () => {
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(checkCard({ number: '', expiry: '', cvc: '1', name: ' ' }, now)).toEqual({
      number: 'numberMissing',
      expiry: 'expiryMissing',
      cvc: 'cvcInvalid',
      name: 'nameMissing',
    });
    expect(checkCard({ ...good, number: '4242 4242 4242 4241', expiry: '13/30' }, now)).toEqual({
      number: 'numberInvalid',
      expiry: 'expiryInvalid',
    });
    expect(checkCard({ ...good, expiry: '10/26' }, now)).toEqual({ expiry: 'expiryPast' });
  });
});
