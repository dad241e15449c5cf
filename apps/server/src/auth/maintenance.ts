import type { Db } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';
import { deleteMailboxMessagesBefore } from './dev-mailbox.repository.ts';
import { deleteFlowStatesBefore } from './flow-states.repository.ts';
import { deleteExpiredChallenges } from './mfa.repository.ts';
import { deleteExpiredTokens } from './one-time-tokens.repository.ts';
import { pruneExpiredChallenges } from './passkeys.repository.ts';
import { deleteSendLogBefore } from './send-log.repository.ts';
import { deleteRevokedRefreshTokensBefore } from './sessions.repository.ts';

const DAY_MS = 86_400_000;

/**
 * Deletes what can no longer be used: expired one-time tokens and MFA challenges, stale PKCE flow states,
 * send-interval marks, revoked refresh tokens older than a week (reuse detection needs only
 * recent ones) and developer-mailbox messages older than a week. Idempotent, so every
 * instance may run it.
 */
export async function pruneExpired(db: Db, clock: Clock): Promise<void> {
  const now = clock().getTime();
  await deleteExpiredTokens(db, new Date(now));
  await deleteExpiredChallenges(db, new Date(now));
  await pruneExpiredChallenges(db, new Date(now));
  await deleteFlowStatesBefore(db, new Date(now - DAY_MS));
  await deleteSendLogBefore(db, new Date(now - DAY_MS));
  await deleteRevokedRefreshTokensBefore(db, new Date(now - 7 * DAY_MS));
  await deleteMailboxMessagesBefore(db, new Date(now - 7 * DAY_MS));
}
