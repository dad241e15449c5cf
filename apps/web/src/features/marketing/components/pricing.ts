import { addOns, type Plan, planCurrency } from '@upnext/contract/plans';
import type { TFunction } from 'i18next';

/** Whole-euro prices, e.g. "€39". */
export function formatPrice(amount: number, language: string): string {
  return new Intl.NumberFormat(language, {
    style: 'currency',
    currency: planCurrency,
    maximumFractionDigits: amount % 1 === 0 ? 0 : 2,
  }).format(amount);
}

export interface PlanHighlight {
  key: string;
  label: string;
  included: boolean;
}

/** The short list of what a plan includes, as shown on its card. */
export function planHighlights(plan: Plan, t: TFunction<'marketing'>): PlanHighlight[] {
  const l = (key: string, options?: Record<string, unknown>) =>
    t(`pricing.limits.${key}`, options ?? {}) as string;
  const items: PlanHighlight[] = [
    {
      key: 'queues',
      label: plan.queues === null ? l('queuesUnlimited') : l('queues', { count: plan.queues }),
      included: true,
    },
    { key: 'staffSeats', label: l('staffSeats', { count: plan.staffSeats }), included: true },
    {
      key: 'sessions',
      label:
        plan.sessionsPerMonth === null
          ? l('sessionsUnlimited')
          : l('sessionsPerMonth', { count: plan.sessionsPerMonth }),
      included: true,
    },
    { key: 'tokens', label: l('tokensPerMonth', { count: plan.tokensPerMonth }), included: true },
    { key: 'locations', label: l('locations', { count: plan.locations }), included: true },
    {
      key: 'video',
      label:
        plan.videoConsultations === null
          ? l('videoUnlimited')
          : plan.videoConsultations === 0
            ? l('videoNone')
            : l('video', { count: plan.videoConsultations }),
      included: plan.videoConsultations !== 0,
    },
    {
      key: 'sms',
      label: plan.smsCredits > 0 ? l('sms', { count: plan.smsCredits }) : l('smsNone'),
      included: plan.smsCredits > 0,
    },
    {
      key: 'payments',
      label: plan.onlinePayments ? l('payments') : l('paymentsNone'),
      included: plan.onlinePayments,
    },
    {
      key: 'retention',
      label: l('retention', { count: plan.retentionMonths }),
      included: true,
    },
  ];
  if (plan.sso) items.push({ key: 'sso', label: l('sso'), included: true });
  if (plan.uptimeSla) {
    items.push({ key: 'sla', label: l('sla', { uptime: addOns.uptimePercent }), included: true });
  }
  return items;
}
