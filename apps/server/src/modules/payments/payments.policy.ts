import type { Db, Tx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { authorize, may, standingOf } from '../access/access.ts';
import type { Caller } from '../access/caller.ts';
import type { PaymentRow } from './payments.repository.ts';

type Queryable = Db | Tx;

export const paymentNotFound = () =>
  new AppError('payment_not_found', 'This payment does not exist.');

/**
 * A payment is read by its payer and by its company's owners and admins (`company.manage`);
 * anyone else gets the same answer as for a payment that does not exist.
 */
export async function authorizePaymentRead(db: Queryable, caller: Caller, payment: PaymentRow) {
  if (caller.kind === 'user' && payment.payerUserId === caller.userId) return;
  const standing = await standingOf(db, caller, { kind: 'company', companyId: payment.companyId });
  if (!may(standing, 'company.manage')) throw paymentNotFound();
}

/** Listing and refunding: the company's owners and admins. */
export async function authorizePaymentAdmin(db: Queryable, caller: Caller, companyId: string) {
  const standing = await standingOf(db, caller, { kind: 'company', companyId });
  if (!may(standing, 'company.read')) throw new AppError('not_found', 'No such company.');
  return authorize(db, caller, 'company.manage', { kind: 'company', companyId });
}

/** A refund of one payment: its company's owners and admins; others are told it does not exist. */
export async function authorizeRefund(db: Queryable, caller: Caller, payment: PaymentRow) {
  await authorizePaymentRead(db, caller, payment);
  const standing = await standingOf(db, caller, { kind: 'company', companyId: payment.companyId });
  if (!may(standing, 'company.manage')) {
    throw new AppError('forbidden', 'Only the company’s owners and admins refund payments.');
  }
}

/** Buying or cancelling a plan: the company's owner (members are told why; others "no such company"). */
export async function authorizeBilling(db: Queryable, caller: Caller, companyId: string) {
  const standing = await standingOf(db, caller, { kind: 'company', companyId });
  if (!may(standing, 'company.read')) throw new AppError('not_found', 'No such company.');
  return authorize(db, caller, 'company.billing', { kind: 'company', companyId });
}
