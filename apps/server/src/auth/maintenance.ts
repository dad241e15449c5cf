import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  authDevMailbox,
  authFlowStates,
  authMfaChallenges,
  authOneTimeTokens,
  authRefreshTokens,
  authSendLog,
} from '../db/schema/auth.ts';
import type { Clock } from '../lib/clock.ts';
import { pruneExpiredChallenges } from './passkey-credentials.ts';

const DAY_MS = 86_400_000;

/**
 * Deletes what can no longer be used: expired one-time tokens and MFA challenges, stale PKCE flow states,
 * send-interval marks, revoked refresh tokens older than a week (reuse detection needs only
 * recent ones) and developer-mailbox messages older than a week. Idempotent, so every
 * instance may run it.
 */
export async function pruneExpired(db: Db, clock: Clock): Promise<void> {
  const now = clock().getTime();
  await db.delete(authOneTimeTokens).where(lt(authOneTimeTokens.expiresAt, new Date(now)));
  await db.delete(authMfaChallenges).where(lt(authMfaChallenges.expiresAt, new Date(now)));
  await pruneExpiredChallenges(db, new Date(now));
  await db.delete(authFlowStates).where(lt(authFlowStates.createdAt, new Date(now - DAY_MS)));
  await db.delete(authSendLog).where(lt(authSendLog.lastSentAt, new Date(now - DAY_MS)));
  await db
    .delete(authRefreshTokens)
    .where(
      and(
        eq(authRefreshTokens.revoked, true),
        lt(authRefreshTokens.updatedAt, new Date(now - 7 * DAY_MS)),
      ),
    );
  await db.delete(authDevMailbox).where(lt(authDevMailbox.createdAt, new Date(now - 7 * DAY_MS)));
}
