import type { MeetingState } from '@upnext/contract/meetings';
import { and, desc, eq, gt, inArray, lte, notInArray, or } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.ts';
import { authUsers } from '../../db/schema/auth.ts';
import { companies, userProfiles } from '../../db/schema/companies.ts';
import { meetings } from '../../db/schema/meetings.ts';
import { queues } from '../../db/schema/queues.ts';
import { sessions } from '../../db/schema/sessions.ts';
import { atDeskStatuses, queueTokens } from '../../db/schema/tokens.ts';

type Queryable = Db | Tx;
export type MeetingRow = typeof meetings.$inferSelect;
export type NewMeeting = typeof meetings.$inferInsert;

const live = inArray(meetings.state, ['ringing', 'active']);

export async function insertMeeting(tx: Tx, values: NewMeeting): Promise<MeetingRow> {
  const [row] = await tx.insert(meetings).values(values).returning();
  if (!row) throw new Error('meeting not inserted');
  return row;
}

export async function findLiveMeetingOfToken(db: Queryable, tokenId: string) {
  const [row] = await db
    .select()
    .from(meetings)
    .where(and(eq(meetings.tokenId, tokenId), live))
    .limit(1);
  return row;
}

export async function findMeeting(db: Queryable, meetingId: string) {
  const [row] = await db.select().from(meetings).where(eq(meetings.id, meetingId)).limit(1);
  return row;
}

/** Locks the meeting: its state changes one at a time (answer, decline, exit, missed). */
export async function lockMeeting(tx: Tx, meetingId: string) {
  const [row] = await tx.select().from(meetings).where(eq(meetings.id, meetingId)).for('update');
  return row;
}

/**
 * The meeting a call message is about: the one `meta.meetingId` names, else the newest of the
 * token that `userId` takes part in. Either way the caller must still be shown to be a party.
 */
export async function findMeetingForCall(
  db: Queryable,
  tokenId: string,
  meetingId: string | undefined,
  userId: string,
) {
  const [row] = await db
    .select()
    .from(meetings)
    .where(
      meetingId === undefined
        ? and(
            eq(meetings.tokenId, tokenId),
            or(eq(meetings.staffUserId, userId), eq(meetings.visitorUserId, userId)),
          )
        : eq(meetings.id, meetingId),
    )
    .orderBy(desc(meetings.createdAt))
    .limit(1);
  return row;
}

export async function updateMeeting(
  tx: Tx,
  meetingId: string,
  values: Partial<Pick<MeetingRow, 'state' | 'answeredAt' | 'endedAt'>>,
): Promise<MeetingRow> {
  const [row] = await tx.update(meetings).set(values).where(eq(meetings.id, meetingId)).returning();
  if (!row) throw new Error(`meeting ${meetingId} vanished while locked`);
  return row;
}

/**
 * Claims calls still ringing past their deadline and marks them missed. SKIP LOCKED: every
 * instance sweeps, none waits on another's rows, and no row is claimed twice.
 */
export function markMissed(db: Db, now: Date, limit: number): Promise<MeetingRow[]> {
  return claimAndSet(db, { state: 'missed', endedAt: now }, (tx) =>
    tx
      .select({ id: meetings.id })
      .from(meetings)
      .where(and(eq(meetings.state, 'ringing'), lte(meetings.ringingUntil, now)))
      .orderBy(meetings.ringingUntil)
      .limit(limit)
      .for('update', { skipLocked: true }),
  );
}

/**
 * Live meetings whose token has left service (completed, no-show, requeued, cancelled) end:
 * the visit is over, so is its call. Claimed with SKIP LOCKED, like the missed calls.
 */
export function endMeetingsOfFinishedTokens(
  db: Db,
  now: Date,
  limit: number,
): Promise<MeetingRow[]> {
  return claimAndSet(db, { state: 'ended', endedAt: now }, (tx) =>
    tx
      .select({ id: meetings.id })
      .from(meetings)
      .innerJoin(queueTokens, eq(queueTokens.id, meetings.tokenId))
      .where(and(live, notInArray(queueTokens.status, [...atDeskStatuses])))
      .limit(limit)
      .for('update', { of: meetings, skipLocked: true }),
  );
}

/** In one transaction: the rows `claim` locks get `values`; the changed rows are returned. */
function claimAndSet(
  db: Db,
  values: Partial<NewMeeting>,
  claim: (tx: Tx) => Promise<Array<{ id: string }>>,
): Promise<MeetingRow[]> {
  return db.transaction(async (tx) => {
    const ids = (await claim(tx)).map((row) => row.id);
    if (ids.length === 0) return [];
    return tx.update(meetings).set(values).where(inArray(meetings.id, ids)).returning();
  });
}

const staffUser = alias(authUsers, 'staff_user');
const staffProfile = alias(userProfiles, 'staff_profile');
const visitorUser = alias(authUsers, 'visitor_user');
const visitorProfile = alias(userProfiles, 'visitor_profile');

/** A meeting with what its screens show: queue, company, token label and both names. */
function selectViews(db: Queryable) {
  return db
    .select({
      meeting: meetings,
      queueId: queues.id,
      queueName: queues.name,
      companyName: companies.name,
      tokenLabel: queueTokens.displayNumber,
      tokenVisitorName: queueTokens.visitorName,
      staffDisplayName: staffProfile.displayName,
      staffEmail: staffUser.email,
      visitorDisplayName: visitorProfile.displayName,
      visitorEmail: visitorUser.email,
    })
    .from(meetings)
    .innerJoin(queueTokens, eq(queueTokens.id, meetings.tokenId))
    .innerJoin(sessions, eq(sessions.id, meetings.sessionId))
    .innerJoin(queues, eq(queues.id, sessions.queueId))
    .innerJoin(companies, eq(companies.id, queues.companyId))
    .innerJoin(staffUser, eq(staffUser.id, meetings.staffUserId))
    .leftJoin(staffProfile, eq(staffProfile.userId, meetings.staffUserId))
    .innerJoin(visitorUser, eq(visitorUser.id, meetings.visitorUserId))
    .leftJoin(visitorProfile, eq(visitorProfile.userId, meetings.visitorUserId));
}
export type MeetingView = Awaited<ReturnType<ReturnType<typeof selectViews>['execute']>>[number];

export async function findMeetingView(db: Queryable, meetingId: string) {
  const [row] = await selectViews(db).where(eq(meetings.id, meetingId)).limit(1);
  return row;
}

/**
 * The user's meetings on either side, newest first, by their state as of `now`: a call still
 * ringing past its deadline counts as missed even before the sweep has written it.
 */
export async function listMeetingViews(
  db: Queryable,
  userId: string,
  state: MeetingState | undefined,
  now: Date,
  limit: number,
) {
  const party = or(eq(meetings.staffUserId, userId), eq(meetings.visitorUserId, userId));
  const overdue = and(eq(meetings.state, 'ringing'), lte(meetings.ringingUntil, now));
  const inState =
    state === undefined
      ? undefined
      : state === 'ringing'
        ? and(eq(meetings.state, 'ringing'), gt(meetings.ringingUntil, now))
        : state === 'missed'
          ? or(eq(meetings.state, 'missed'), overdue)
          : eq(meetings.state, state);
  return selectViews(db).where(and(party, inState)).orderBy(desc(meetings.createdAt)).limit(limit);
}

export async function queueOffersVideo(db: Queryable, queueId: string): Promise<boolean> {
  const [row] = await db
    .select({ online: queues.online })
    .from(queues)
    .where(eq(queues.id, queueId));
  return row?.online ?? false;
}

/** The queue a session belongs to (for the meeting's state events). */
export async function queueOfSession(db: Queryable, sessionId: string) {
  const [row] = await db
    .select({ queueId: sessions.queueId })
    .from(sessions)
    .where(eq(sessions.id, sessionId));
  return row?.queueId;
}
