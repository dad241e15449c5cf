import type { PaymentStatus, RefundStatus } from '@upnext/contract/payments';
import { statusBadge } from '../../components/tones.tsx';

/** The one colour of each payment status on every screen; a failed payment is filled. */
export const PaymentStatusBadge = statusBadge<PaymentStatus>(
  { pending: 'yellow', paid: 'teal', failed: 'red', cancelled: 'gray', expired: 'grape' },
  'entities:payment.status',
  'failed',
);

/** A refund's state beside a paid payment; a failed refund is filled to stand out. */
export const RefundStatusBadge = statusBadge<RefundStatus>(
  { pending: 'yellow', succeeded: 'blue', failed: 'red' },
  'entities:payment.refund',
  'failed',
);
