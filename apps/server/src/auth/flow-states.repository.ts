import { and, eq, isNull, lt } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { authFlowStates } from '../db/schema/auth.ts';
import { authOAuthStates } from '../db/schema/auth-oauth.ts';

export type FlowStateRow = typeof authFlowStates.$inferSelect;
type NewFlowState = Omit<typeof authFlowStates.$inferInsert, 'id'>;
export type OAuthStateRow = typeof authOAuthStates.$inferSelect;
type NewOAuthState = Omit<typeof authOAuthStates.$inferInsert, 'id'>;

export async function insertFlowState(tx: Tx, values: NewFlowState): Promise<void> {
  await tx.insert(authFlowStates).values(values);
}

/** The user's flow state of this kind still waiting for its email link (none or one). */
function unfinished(userId: string, authenticationMethod: string) {
  return and(
    eq(authFlowStates.userId, userId),
    eq(authFlowStates.authenticationMethod, authenticationMethod),
    isNull(authFlowStates.authCodeIssuedAt),
  );
}

export async function deleteUnfinishedFlowStates(
  tx: Tx,
  userId: string,
  authenticationMethod: string,
): Promise<void> {
  await tx.delete(authFlowStates).where(unfinished(userId, authenticationMethod));
}

export async function lockUnfinishedFlowState(
  tx: Tx,
  userId: string,
  authenticationMethod: string,
): Promise<FlowStateRow | undefined> {
  const [flow] = await tx
    .select()
    .from(authFlowStates)
    .where(unfinished(userId, authenticationMethod))
    .for('update');
  return flow;
}

export async function setAuthCode(tx: Tx, id: string, authCodeHash: string, now: Date) {
  await tx
    .update(authFlowStates)
    .set({ authCodeHash, authCodeIssuedAt: now, updatedAt: now })
    .where(eq(authFlowStates.id, id));
}

export async function lockFlowStateByAuthCode(
  tx: Tx,
  authCodeHash: string,
): Promise<FlowStateRow | undefined> {
  const [flow] = await tx
    .select()
    .from(authFlowStates)
    .where(eq(authFlowStates.authCodeHash, authCodeHash))
    .for('update');
  return flow;
}

export async function deleteFlowState(tx: Tx, id: string): Promise<void> {
  await tx.delete(authFlowStates).where(eq(authFlowStates.id, id));
}

/** A provider sign-in's state; abandoned ones are cleared as new ones start. */
export async function startOAuthState(
  db: Db,
  values: NewOAuthState & { createdAt: Date },
): Promise<string> {
  await db.delete(authOAuthStates).where(lt(authOAuthStates.expiresAt, values.createdAt));
  const [row] = await db
    .insert(authOAuthStates)
    .values(values)
    .returning({ id: authOAuthStates.id });
  return (row as { id: string }).id;
}

/** Single use: whoever deletes the row owns the sign-in. */
export async function takeOAuthState(db: Db, id: string): Promise<OAuthStateRow | undefined> {
  const [flow] = await db.delete(authOAuthStates).where(eq(authOAuthStates.id, id)).returning();
  return flow;
}

/** Flow states older than `before`, used or not (an auth code lives minutes). */
export async function deleteFlowStatesBefore(db: Db, before: Date): Promise<void> {
  await db.delete(authFlowStates).where(lt(authFlowStates.createdAt, before));
}
