import type { Queue } from '@upnext/contract/queues';
import type { QueueToken } from '@upnext/contract/tokens';
import type { TFunction } from 'i18next';

/** A notice period in words: "2 days", "3 hours", "45 minutes". */
export function noticeText(t: TFunction<'visit'>, minutes: number): string {
  return minutes % 1440 === 0
    ? t('refund.noticeDays', { count: minutes / 1440 })
    : minutes % 60 === 0
      ? t('refund.noticeHours', { count: minutes / 60 })
      : t('refund.noticeMinutes', { count: minutes });
}

/**
 * What cancelling a paid token now gives back by the queue's rule (contract `queueSchema`): at
 * least `cancelNoticeMinutes` before the start, `refundPercent` of the amount paid, rounded
 * down; later, nothing. The server applies it (`visitorRefundShare` in tokens.payments.ts);
 * this only words it for the cancel dialog. `start` is the slot's start for a booking; a
 * walk-in's session start is not on the token, so the dialog then states the rule instead of
 * its result (`kind: 'rule'`).
 */
type RefundOnCancel =
  | { kind: 'none' }
  /** The queue's rule is not known yet (still loading). */
  | { kind: 'unknown' }
  | { kind: 'unpaid' }
  | { kind: 'amount'; amountMinor: number; currency: string; percent: number }
  | { kind: 'late'; noticeMinutes: number }
  | {
      kind: 'rule';
      amountMinor: number;
      currency: string;
      percent: number;
      noticeMinutes: number;
    };

export function refundOnCancel(
  token: QueueToken,
  queue: Pick<Queue, 'cancelNoticeMinutes' | 'refundPercent'> | undefined,
  now: number,
): RefundOnCancel {
  const payment = token.payment;
  if (payment?.status !== 'paid') return { kind: 'unpaid' };
  const left = payment.amountMinor - payment.refundedMinor;
  if (left <= 0) return { kind: 'none' };
  if (!queue) return { kind: 'unknown' };
  if (queue.refundPercent === 0) return { kind: 'none' };
  const percent = queue.refundPercent;
  // As the server (tokens.payments.ts): the share of the amount paid, rounded down.
  const amountMinor = Math.min(left, Math.floor((payment.amountMinor * percent) / 100));
  const base = { amountMinor, currency: payment.currency, percent };
  if (queue.cancelNoticeMinutes === 0) return { kind: 'amount', ...base };
  if (!token.slotStartsAt) {
    return { kind: 'rule', ...base, noticeMinutes: queue.cancelNoticeMinutes };
  }
  const deadline = new Date(token.slotStartsAt).getTime() - queue.cancelNoticeMinutes * 60_000;
  return now <= deadline
    ? { kind: 'amount', ...base }
    : { kind: 'late', noticeMinutes: queue.cancelNoticeMinutes };
}
