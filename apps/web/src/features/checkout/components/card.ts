/**
 * A card form's typing and checks, as card checkouts do them: the number in groups of four,
 * the expiry as MM/YY, digits only where digits belong. The checks only help the payer: the
 * sandbox decides (any number outside its test cards is `invalid_card_number`).
 */

import { cardExpiryEnd, luhnValid } from '@upnext/contract/payments';

export type CardField = 'number' | 'expiry' | 'cvc' | 'name';
export type CardValues = Record<CardField, string>;
export type CardErrors = Partial<Record<CardField, CardProblem>>;
type CardProblem =
  | 'numberMissing'
  | 'numberInvalid'
  | 'expiryMissing'
  | 'expiryInvalid'
  | 'expiryPast'
  | 'cvcInvalid'
  | 'nameMissing';

const digits = (value: string) => value.replace(/\D/g, '');

/** "4242424242424242" → "4242 4242 4242 4242" (at most 19 digits). */
export function formatCardNumber(value: string): string {
  return digits(value)
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** "1" → "1", "12" → "12/", "1234" → "12/34"; a slash deleted with backspace stays deleted. */
export function formatExpiry(value: string, previous = ''): string {
  const d = digits(value).slice(0, 4);
  if (d.length < 2) return d;
  // Backspace over the slash: leave the month alone rather than putting the slash back.
  if (d.length === 2 && previous.length > value.length) return d;
  return `${d.slice(0, 2)}/${d.slice(2)}`;
}

/** Only digits, at most four. */
export function formatCvc(value: string): string {
  return digits(value).slice(0, 4);
}

/** The contract's Luhn check, for the form's own hints. */
export { luhnValid };

/** What is wrong with each field, in the order of the form; empty when it may be sent. */
export function checkCard(values: CardValues, now: Date): CardErrors {
  const errors: CardErrors = {};
  const number = digits(values.number);
  if (!number) errors.number = 'numberMissing';
  else if (!luhnValid(number)) errors.number = 'numberInvalid';

  const expiryEnd = cardExpiryEnd(values.expiry);
  if (!values.expiry.trim()) errors.expiry = 'expiryMissing';
  else if (!expiryEnd) errors.expiry = 'expiryInvalid';
  else if (expiryEnd <= now) errors.expiry = 'expiryPast';

  if (!/^\d{3,4}$/.test(values.cvc.trim())) errors.cvc = 'cvcInvalid';
  if (!values.name.trim()) errors.name = 'nameMissing';
  return errors;
}

/** The sandbox's refusals of a card, by field (anything else is said above the form). */
export const serverFieldErrors: Record<string, CardField> = {
  invalid_card_number: 'number',
  invalid_expiry: 'expiry',
  invalid_cvc: 'cvc',
  invalid_name: 'name',
};

export const fieldOrder: readonly CardField[] = ['number', 'expiry', 'cvc', 'name'];
