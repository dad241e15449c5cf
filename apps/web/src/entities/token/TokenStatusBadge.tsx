import type { TokenStatus } from '@upnext/contract/tokens';
import { statusBadge } from '../../components/tones.tsx';

/** The one colour of each token status on every screen; "called" is filled to stand out. */
export const TokenStatusBadge = statusBadge<TokenStatus>(
  {
    pending_payment: 'grape',
    booked: 'blue',
    waiting: 'yellow',
    called: 'teal',
    serving: 'brand',
    served: 'gray',
    no_show: 'red',
    cancelled: 'gray',
  },
  'entities:token.status',
  'called',
);
