/**
 * A card form's typing and checks, as card checkouts do them: the number in groups of four,
 * the expiry as MM/YY, digits only where digits belong. The checks only help the payer: the
 * sandbox decides (any number outside its test cards is `invalid_card_number`).
 */

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

/** The Luhn check every card number passes. */
export function luhnValid(number: string): boolean {
  const d = digits(number);
  if (d.length < 12 || d.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < d.length; i += 1) {
    let n = Number(d[d.length - 1 - i]);
    if (i % 2 === 1) {
      n *= 2;
      if (n > 9) n -= 9;
    }
    sum += n;
  }
  return sum % 10 === 0;
}

/** What is wrong with each field, in the order of the form; empty when it may be sent. */
export function checkCard(values: CardValues, now: Date): CardErrors {
  const errors: CardErrors = {};
  const number = digits(values.number);
  if (!number) errors.number = 'numberMissing';
  else if (!luhnValid(number)) errors.number = 'numberInvalid';

  const expiry = /^(\d{2})\s*\/\s*(\d{2})$/.exec(values.expiry.trim());
  if (!values.expiry.trim()) errors.expiry = 'expiryMissing';
  else if (!expiry || Number(expiry[1]) < 1 || Number(expiry[1]) > 12) {
    errors.expiry = 'expiryInvalid';
  } else {
    const year = 2000 + Number(expiry[2]);
    const month = Number(expiry[1]);
    // A card is valid to the end of its expiry month.
    if (year * 12 + month < now.getFullYear() * 12 + now.getMonth() + 1) {
      errors.expiry = 'expiryPast';
    }
  }

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
