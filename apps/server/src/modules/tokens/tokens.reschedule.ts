import type { UserEvent } from '@upnext/contract/realtime';
import { topics } from '@upnext/contract/realtime-topics';
import type { QueueToken, RescheduleInput } from '@upnext/contract/tokens';
import type { Tx } from '../../db/client.ts';
import { MOVED_AWAY_REASON } from '../../db/schema/tokens.ts';
import { AppError } from '../../lib/errors.ts';
import { isMember, notFoundError } from '../access/access.ts';
import type { Caller } from '../access/caller.ts';
import { publishLive } from './tokens.events.ts';
import { liveLine } from './tokens.line.ts';
import { notifyBooking } from './tokens.notifications.ts';
import { authorizeToken } from './tokens.policy.ts';
import * as repo from './tokens.repository.ts';
import { hasFreePlace, type SessionContext, type TokenRow } from './tokens.repository.ts';
import {
  announce,
  assertChangeAllowed,
  displayNumber,
  present,
  requireBookable,
  requireIssuing,
  type TokensDeps,
} from './tokens.service.ts';

/**
 * Rescheduling (issue 16): a booking moves to another free slot of its queue and stays the
 * same token (id, status link, answers, payment). Locks as everywhere: sessions first (both,
 * in id order, when it changes session), then slots (in key order), then the token; so the
 * old slot gives its place back and the new one takes it under the slot locks, and two moves
 * into the last place of a slot cannot both succeed.
 *
 * In another session the token takes that session's next number, and its old number stays
 * taken by a cancelled row (reason `rescheduled`, no account, not counted against the plan:
 * migration 0011), so numbers stay unique and gap-free in both sessions.
 */

type Moved = {
  token: TokenRow;
  from: SessionContext;
  to: SessionContext;
  staff: boolean;
  changed: boolean;
};

const slotKey = (serviceId: string, slotNo: number) =>
  `${serviceId}:${String(slotNo).padStart(10, '0')}`;

async function move(
  tx: Tx,
  deps: TokensDeps,
  caller: Caller,
  input: RescheduleInput,
  sessionIds: { from: string; to: string },
): Promise<Moved | 'moved_meanwhile'> {
  const locked = new Map<string, SessionContext>();
  for (const id of [...new Set([sessionIds.from, sessionIds.to])].sort()) {
    const session = await repo.lockSessionContext(tx, id);
    if (session) locked.set(id, session);
  }
  const found = await repo.findToken(tx, input.tokenId);
  if (!found) throw notFoundError.token();
  // Another move took it to a session this one did not lock: start again.
  if (found.sessionId !== sessionIds.from) return 'moved_meanwhile';
  const from = locked.get(sessionIds.from);
  if (!from) throw notFoundError.token();
  const access = await authorizeToken(tx, caller, 'token.reschedule', found, from);
  const staff = isMember(access);
  const to = locked.get(sessionIds.to);
  // A slot of another queue is none of this booking's.
  if (!to || to.queueId !== from.queueId) {
    throw new AppError('slot_not_found', 'This slot does not exist.');
  }
  const now = deps.clock();
  if (found.kind !== 'booking' || found.sessionServiceId === null || found.slotNo === null) {
    throw new AppError('invalid_token_transition', 'Only a booking can be moved to another slot.', {
      from: found.status,
      action: 'reschedule',
    });
  }
  if (found.sessionServiceId === input.serviceId && found.slotNo === input.slotNo) {
    // Already there (a repeated request): nothing to change.
    return { token: found, from, to, staff, changed: false };
  }
  if (found.status !== 'booked') {
    throw new AppError(
      'invalid_token_transition',
      `A ${found.status.replace('_', ' ')} booking cannot be moved; only one not yet due can.`,
      { from: found.status, action: 'reschedule' },
    );
  }
  assertChangeAllowed(access, from, found, now);
  requireIssuing(to, now);
  const old = { serviceId: found.sessionServiceId, slotNo: found.slotNo };
  const wanted = { serviceId: input.serviceId, slotNo: input.slotNo };
  const [first, second] = [old, wanted].sort((a, b) =>
    slotKey(a.serviceId, a.slotNo) < slotKey(b.serviceId, b.slotNo) ? -1 : 1,
  );
  const lockedFirst = await repo.lockSlot(tx, first?.serviceId ?? '', first?.slotNo ?? 0);
  const lockedSecond = await repo.lockSlot(tx, second?.serviceId ?? '', second?.slotNo ?? 0);
  const target = requireBookable(first === wanted ? lockedFirst : lockedSecond, now);
  const current = await repo.lockToken(tx, found.id);
  if (current?.status !== 'booked') throw notFoundError.token();
  const slotFields = {
    sessionServiceId: wanted.serviceId,
    slotNo: wanted.slotNo,
    slotStartsAt: target.startsAt,
    updatedAt: now,
  };
  let token: TokenRow;
  if (to.sessionId === from.sessionId) {
    token = await repo.updateToken(tx, current.id, slotFields);
  } else {
    if (current.userId) {
      const held = await repo.liveTokenIdsOf(tx, to.sessionId, current.userId);
      if (held.length >= to.tokensPerVisitor) {
        throw new AppError(
          'token_limit_reached',
          'You already hold the most places this queue allows in that session.',
          { limit: to.tokensPerVisitor, tokenIds: held },
        );
      }
    }
    if (!hasFreePlace(to)) {
      throw new AppError('session_full', 'That session is full. Please choose another time.');
    }
    token = await repo.moveTokenToSession(tx, current.id, to, (number) => ({
      ...slotFields,
      displayNumber: displayNumber(to.tokenPrefix, number),
    }));
    // The old number stays taken; its place is free again.
    await repo.insertTokenRow(tx, {
      sessionId: from.sessionId,
      number: current.number,
      displayNumber: current.displayNumber,
      kind: 'booking',
      sessionServiceId: old.serviceId,
      slotNo: old.slotNo,
      slotStartsAt: current.slotStartsAt,
      visitorName: current.visitorName,
      status: 'cancelled',
      joinedAt: current.joinedAt,
      cancelledAt: now,
      cancelReason: MOVED_AWAY_REASON,
      updatedAt: now,
    });
    await repo.changeReleasedPlaces(tx, from.sessionId, 1, now);
  }
  await repo.changeBookedCount(tx, old.serviceId, old.slotNo, -1);
  await repo.changeBookedCount(tx, wanted.serviceId, wanted.slotNo, 1);
  // A slot that is near joins the live line at once, as a booking made then would.
  const admitted = await repo.admitDueBookings(tx, to.sessionId, now);
  token = admitted.find((row) => row.id === token.id) ?? token;
  await notifyBooking(tx, deps, now, to, token, 'booking_moved');
  return { token, from, to, staff, changed: true };
}

/** Its holder is told on their own topic; both sessions' lines are announced. */
async function publishMoved(deps: TokensDeps, moved: Moved) {
  const { token, from, to } = moved;
  if (from.sessionId !== to.sessionId) {
    await publishLive(deps, await liveLine(deps.db, from, deps.clock()));
  }
  if (!token.userId || !token.slotStartsAt) return;
  const subscribeId = (await repo.subscribeIdsOf(deps.db, [token.userId])).get(token.userId);
  if (!subscribeId) return;
  const event: UserEvent = {
    type: 'token.rescheduled',
    tokenId: token.id,
    sessionId: token.sessionId,
    label: token.displayNumber,
    slotStartsAt: token.slotStartsAt.toISOString(),
    at: deps.clock().toISOString(),
  };
  deps.publisher.publish(topics.user(subscribeId), event);
}

export async function rescheduleBooking(
  deps: TokensDeps,
  caller: Caller,
  input: RescheduleInput,
): Promise<QueueToken> {
  const viewerId = caller.kind === 'user' ? caller.userId : undefined;
  const toSession = await repo.findServiceSession(deps.db, input.serviceId);
  if (!toSession) throw new AppError('slot_not_found', 'This slot does not exist.');
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const existing = await repo.findToken(deps.db, input.tokenId);
    if (!existing) throw notFoundError.token();
    const moved = await deps.db.transaction((tx) =>
      move(tx, deps, caller, input, { from: existing.sessionId, to: toSession }),
    );
    if (moved === 'moved_meanwhile') continue;
    const view = { staff: moved.staff, viewerId };
    if (!moved.changed) return (await present(deps, [moved.token], view))[0] as QueueToken;
    await publishMoved(deps, moved);
    return announce(deps, moved.to, moved.token, view);
  }
  throw new AppError('conflict', 'This booking is being changed. Please try again.');
}
