import type { QueueToken } from '@upnext/contract/tokens';
import { toCsv } from '../../lib/csv.ts';

const tokenCsvHeader = [
  'number',
  'name',
  'phone',
  'email',
  'kind',
  'status',
  'joined',
  'called',
  'completed',
  'service seconds',
] as const;

/** The session's tokens as CSV, one line per token, times as ISO 8601. */
export function tokensToCsv(tokens: readonly QueueToken[]): string {
  return toCsv([
    tokenCsvHeader,
    ...tokens.map((token) => [
      token.displayNumber,
      token.visitorName,
      token.visitorPhone,
      token.visitorEmail,
      token.kind,
      token.status,
      token.joinedAt,
      token.calledAt,
      token.completedAt,
      token.serviceSeconds,
    ]),
  ]);
}
