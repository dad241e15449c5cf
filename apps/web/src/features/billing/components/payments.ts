import { currencyDigits } from '@upnext/contract/money';
import type { Payment } from '@upnext/contract/payments';
import { toCsv } from '../../../lib/csv.ts';
import { i18n } from '../../../lib/i18n.ts';
import { formatDateTime, planName } from './format.ts';

/** What a payment was for: "Token A-007 · Blood tests", or "Pro plan". */
export function whatText(payment: Payment): string {
  if (payment.token) {
    return i18n.t('billing:payments.visitWhat', {
      number: payment.token.displayNumber,
      queue: payment.token.queueName,
    });
  }
  return i18n.t('billing:payments.planWhat', { plan: planName(payment.plan ?? 'pro') });
}

/**
 * Whether a refund may be asked for: paid, something left to refund, no refund under way. The
 * server decides (`payment_not_refundable`); this only hides a button that would be refused.
 */
export function refundable(payment: Payment): boolean {
  return (
    payment.status === 'paid' &&
    payment.refundedMinor < payment.amountMinor &&
    payment.refundStatus !== 'pending'
  );
}

const header = [
  'created',
  'created (company time)',
  'kind',
  'status',
  'payer',
  'for',
  'amount',
  'list amount',
  'currency',
  'promotion code',
  'refund status',
  'refunded',
  'paid',
  'payment id',
] as const;

/** Minor units as a plain decimal in the currency's own unit ("25.00", "2500" for JPY). */
function decimal(minor: number, currency: string): string {
  const digits = currencyDigits(currency);
  return (minor / 10 ** digits).toFixed(digits);
}

/** The payments as CSV, one line each: instants as ISO 8601 and in the company's zone. */
export function paymentsToCsv(payments: readonly Payment[], timezone: string): string {
  return toCsv([
    header,
    ...payments.map((payment) => [
      payment.createdAt,
      formatDateTime(payment.createdAt, timezone, 'en-GB'),
      payment.kind,
      payment.status,
      payment.payerEmail,
      whatText(payment),
      decimal(payment.amountMinor, payment.currency),
      decimal(payment.listAmountMinor, payment.currency),
      payment.currency,
      payment.promotionCode,
      payment.refundStatus,
      decimal(payment.refundedMinor, payment.currency),
      payment.paidAt,
      payment.id,
    ]),
  ]);
}
