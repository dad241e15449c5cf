import { toE164 } from '@upnext/contract/phone';
import type { z } from 'zod';
import { i18n } from '../../../lib/i18n.ts';

type Issue = z.core.$ZodIssue;

const v = (key: string, values: Record<string, unknown> = {}) =>
  i18n.t(`workspace:validation.${key}`, values);

/**
 * A person-readable message for a contract issue. zod's generic messages ("Too small: expected
 * string to have >=1 characters") are replaced; the contract's own wording (refinements,
 * patterns with a message) is kept.
 */
function issueMessage(issue: Issue): string {
  switch (issue.code) {
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return min <= 1 ? v('required') : v('minChars', { min });
      if (issue.origin === 'array') return min <= 1 ? v('chooseOne') : v('minItems', { min });
      return issue.inclusive === false ? v('greaterThan', { min }) : v('min', { min });
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return v('maxChars', { max });
      if (issue.origin === 'array') return v('maxItems', { max });
      return v('max', { max });
    }
    case 'invalid_type':
      return issue.expected === 'number' ? v('number') : v('required');
    case 'invalid_format':
      if (issue.format === 'email') return v('email');
      if (issue.format === 'url') return v('url');
      if (issue.format === 'uuid') return v('chooseOne');
      return issue.message;
    case 'invalid_value':
      return v('chooseOne');
    case 'not_multiple_of':
      return v('number');
    default:
      return issue.message;
  }
}

/**
 * Run a contract schema over the body a form would send and turn its issues into Mantine form
 * errors. `fieldOf` maps a body path ("priceMinor", "recurrence.until") to the form field
 * that shows it; unmapped paths land on the field of the same name.
 */
export function contractErrors(
  schema: z.ZodType,
  body: unknown,
  fieldOf: Record<string, string> = {},
): Record<string, string> {
  const result = schema.safeParse(body);
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const path = issue.path.map(String).join('.');
    const field = fieldOf[path] ?? (path || 'form');
    errors[field] ??= issueMessage(issue as Issue);
  }
  return errors;
}

/**
 * An optional phone field under the contract's rule (phone.ts): read in the company's
 * `country`, sent in E.164; empty sends null. A number the rule refuses is sent as typed so
 * `phoneError` (and the server's `invalid_phone`) still see it.
 */
export function phoneBody(raw: string, country: string): string | null {
  const text = raw.trim();
  return text ? (toE164(text, country) ?? text) : null;
}

/** The message for a phone field the contract's rule refuses; null when empty or valid. */
export function phoneError(raw: string, country: string): string | null {
  const text = raw.trim();
  return text && toE164(text, country) === null ? v('phone') : null;
}
