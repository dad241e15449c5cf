import type { FastifyBaseLogger } from 'fastify';
import { createPeriodicTask } from '../../lib/periodic.ts';
import { type PaymentsDeps, sweepPayments } from './payments.service.ts';

/** How often each instance looks for payment holds that ran out (a place frees within this). */
const SWEEP_INTERVAL_MS = 5000;

/**
 * Releases unpaid holds past their expiry, expires plan checkouts left open and lapses plans
 * past their period. Every instance runs one; rows are claimed with SKIP LOCKED.
 */
export function createPaymentSweeper(deps: PaymentsDeps & { log: FastifyBaseLogger }) {
  const periodic = createPeriodicTask(() => sweepPayments(deps), deps.log, 'payment sweep');
  return {
    start: (intervalMs = SWEEP_INTERVAL_MS) => periodic.start(intervalMs),
    stop: periodic.stop,
  };
}
