import type { CompanyPlan } from '@upnext/contract/companies';
import { i18n } from '../../../lib/i18n.ts';

/** A plan's name as the pricing page writes it ("Pro"). */
export function planName(plan: CompanyPlan): string {
  return i18n.t(`marketing:pricing.plans.${plan}.name`);
}

/** "27 December 2026": a day (a renewal, a period's end) in the company's time zone. */
export function formatDay(iso: string, timeZone: string, locale = i18n.language): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone }).format(new Date(iso));
}

/** "27 Nov 2026, 14:05": a payment's time in the company's time zone. */
export function formatDateTime(iso: string, timeZone: string, locale = i18n.language): string {
  return new Intl.DateTimeFormat(locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  }).format(new Date(iso));
}
