import type { SessionStatus } from '@upnext/contract/sessions';
import { statusBadge } from '../../components/tones.tsx';

/** The one colour of each session status on every screen; "open" (live) is filled. */
export const SessionStatusBadge = statusBadge<SessionStatus>(
  { scheduled: 'blue', open: 'teal', paused: 'yellow', closed: 'gray', cancelled: 'red' },
  'entities:session.status',
  'open',
);
