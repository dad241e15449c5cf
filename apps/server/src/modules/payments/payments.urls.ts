import { companyBillingPath, joinPath, spaRoutes } from '@upnext/contract/routes';
import type { PaymentView } from './payments.repository.ts';

/**
 * Where a payer returns from a checkout: the payment-success page (visitors) or the admin one
 * (a plan), which read the real outcome; on leaving, back to the join page or the company's
 * settings' Billing tab. The one rule for every provider.
 */
export function returnUrls(publicUrl: string, view: Pick<PaymentView, 'payment' | 'joinCode'>) {
  const { payment } = view;
  const plan = payment.kind === 'plan';
  const success = plan ? spaRoutes.adminPaymentSuccess : spaRoutes.paymentSuccess;
  const cancel = plan
    ? companyBillingPath
    : view.joinCode
      ? joinPath(view.joinCode)
      : spaRoutes.adminMySessions;
  return {
    successUrl: `${publicUrl}${success}?paymentId=${payment.id}`,
    cancelUrl: `${publicUrl}${cancel}`,
  };
}

/** What the payer sees they pay for, e.g. "General practice, A-017" or "UpNext Pro plan, monthly". */
export function describePayment(
  view: Pick<PaymentView, 'payment' | 'queueName' | 'token'>,
): string {
  if (view.payment.kind === 'plan') {
    const plan = view.payment.plan ?? '';
    return `UpNext ${plan.charAt(0).toUpperCase()}${plan.slice(1)} plan, monthly`;
  }
  return `${view.queueName ?? 'Visit'}, ${view.token?.displayNumber ?? ''}`.replace(/, $/, '');
}
