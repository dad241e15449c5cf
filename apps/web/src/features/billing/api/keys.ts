import type { ListPaymentsQuery } from '@upnext/contract/payments';

/** Query keys of the billing feature, so mutations invalidate exactly what they change. */
export const billingKeys = {
  all: ['billing'] as const,
  billing: (companyId: string) => [...billingKeys.all, 'company', companyId] as const,
  payments: (companyId: string) => [...billingKeys.all, 'payments', companyId] as const,
  paymentPage: (companyId: string, query: Partial<ListPaymentsQuery>) =>
    [...billingKeys.payments(companyId), query] as const,
  payment: (paymentId: string) => [...billingKeys.all, 'payment', paymentId] as const,
};
