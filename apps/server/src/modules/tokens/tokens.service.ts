import type {
  BookSlotInput,
  QueueToken,
  TakeTokenInput,
  TokenAction,
  TokensQueryInput,
} from '@upnext/contract/tokens';
import type { Db, Tx } from '../../db/client.ts';
import type { Caller, SignedInCaller } from '../../http/caller.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import type { EventPublisher } from '../../lib/events.ts';
import { secondsPerToken } from './tokens.estimates.ts';
import {
  publishCalled,
  publishCancelled,
  publishNowServing,
  publishSessionState,
  publishWaitingLine,
} from './tokens.events.ts';
import { calendarFor, notifyHolder, notifyIssued } from './tokens.notifications.ts';
import {
  isCompanyMember,
  requireHolderOrStaff,
  requireJoinable,
  requireStaff,
} from './tokens.policy.ts';
import type { SessionContext, TokenRow } from './tokens.repository.ts';
import * as repo from './tokens.repository.ts';

export type TokensDeps = {
  db: Db;
  clock: Clock;
  publisher: EventPublisher;
  publicUrl: string;
  /** Whether an SMS path exists: visitors with a phone then get texts too. */
  smsEnabled: boolean;
};

const notFound = () => new AppError('session_not_found', 'This session does not exist.');

function displayNumber(prefix: string, number: number): string {
  const padded = String(number).padStart(3, '0');
  return prefix ? `${prefix}-${padded}` : padded;
}

/** Sessions take tokens until they close or their window ends. */
function requireIssuing(session: SessionContext, now: Date) {
  if (session.status === 'closed' || session.status === 'cancelled' || session.endsAt <= now) {
    throw new AppError('session_closed', 'This session is closed and takes no more tokens.');
  }
}

/** Who the token is for: the caller, or (staff only) a walk-in visitor without an account. */
function visitorOf(caller: SignedInCaller, input: TakeTokenInput | BookSlotInput, staff: boolean) {
  if (staff && input.visitorName) {
    return {
      userId: null,
      visitorName: input.visitorName,
      visitorPhone: input.visitorPhone ?? null,
      visitorEmail: input.visitorEmail ?? null,
      issuedBy: caller.userId,
    };
  }
  return {
    userId: caller.userId,
    visitorName: input.visitorName ?? caller.email?.split('@')[0] ?? '',
    visitorPhone: input.visitorPhone ?? caller.phone,
    visitorEmail: caller.email,
    issuedBy: null,
  };
}

async function issue(
  tx: Tx,
  deps: TokensDeps,
  caller: SignedInCaller,
  sessionId: string,
  input: TakeTokenInput | BookSlotInput,
  booking: { serviceId: string; slotNo: number; startsAt: Date } | undefined,
): Promise<{ token: TokenRow; session: SessionContext; staff: boolean }> {
  const now = deps.clock();
  const session = await repo.lockSessionContext(tx, sessionId);
  if (!session) throw notFound();
  const { staff } = await requireJoinable(tx, caller, session);
  requireIssuing(session, now);
  if (!booking && session.mode === 'slots') {
    throw new AppError(
      'walk_in_not_allowed',
      'This queue takes bookings only. Choose a time slot.',
    );
  }
  if (booking && session.mode === 'walk_in') {
    throw new AppError('booking_not_allowed', 'This queue takes walk-in tokens only.');
  }
  if (!staff && (input.priority !== undefined || input.notes !== undefined)) {
    throw new AppError('forbidden', 'Only staff can set a priority or notes.');
  }
  const visitor = visitorOf(caller, input, staff);
  if (visitor.userId) {
    const held = await repo.countLiveTokensOf(tx, session.sessionId, visitor.userId);
    if (held >= session.tokensPerVisitor) {
      throw new AppError(
        'token_limit_reached',
        `You already hold ${held} token${held === 1 ? '' : 's'} in this session, the most this queue allows.`,
        { limit: session.tokensPerVisitor },
      );
    }
  }
  if (session.lastIssuedNumber >= session.capacity) {
    throw new AppError('session_full', 'This session is full. Please choose another session.');
  }
  const number = await repo.takeNextNumber(tx, session.sessionId, now);
  // A booking waits in the live line once its session is under way; until then it is booked.
  const live = session.status === 'open' || session.status === 'paused';
  const token = await repo.insertToken(tx, {
    sessionId: session.sessionId,
    number,
    displayNumber: displayNumber(session.tokenPrefix, number),
    kind: booking ? 'booking' : 'walk_in',
    sessionServiceId: booking?.serviceId ?? null,
    slotNo: booking?.slotNo ?? null,
    slotStartsAt: booking?.startsAt ?? null,
    ...visitor,
    status: booking && !live ? 'booked' : 'waiting',
    priority: input.priority ?? 0,
    notes: input.notes ?? '',
    joinedAt: now,
    updatedAt: now,
  });
  await notifyIssued(tx, deps, now, session, token);
  return { token, session, staff };
}

export async function takeToken(deps: TokensDeps, caller: Caller, input: TakeTokenInput) {
  const signedIn = requireSignedIn(caller);
  const { token, session, staff } = await deps.db.transaction((tx) =>
    issue(tx, deps, signedIn, input.sessionId, input, undefined),
  );
  await publishSessionState(deps, session.sessionId);
  return (await present(deps, [token], { staff, viewerId: signedIn.userId }))[0] as QueueToken;
}

export async function bookSlot(deps: TokensDeps, caller: Caller, input: BookSlotInput) {
  const signedIn = requireSignedIn(caller);
  const sessionId = await repo.findServiceSession(deps.db, input.serviceId);
  if (!sessionId) throw new AppError('slot_not_found', 'This slot does not exist.');
  const { token, session, staff } = await deps.db.transaction(async (tx) => {
    // Lock order everywhere: session, then slot.
    const locked = await repo.lockSessionContext(tx, sessionId);
    if (!locked) throw notFound();
    const slot = await repo.lockSlot(tx, input.serviceId, input.slotNo);
    if (!slot) throw new AppError('slot_not_found', 'This slot does not exist.');
    const now = deps.clock();
    if (slot.status === 'blocked') {
      throw new AppError('slot_blocked', 'This slot is not available. Please choose another time.');
    }
    if (slot.startsAt <= now) {
      throw new AppError(
        'slot_in_past',
        'This slot has already started. Please choose a later time.',
      );
    }
    if (slot.bookedCount >= slot.capacity) {
      throw new AppError('slot_full', 'This slot is already full. Please choose another time.');
    }
    const issued = await issue(tx, deps, signedIn, sessionId, input, {
      serviceId: input.serviceId,
      slotNo: input.slotNo,
      startsAt: slot.startsAt,
    });
    await repo.changeBookedCount(tx, input.serviceId, input.slotNo, 1);
    return issued;
  });
  await publishSessionState(deps, session.sessionId);
  return (await present(deps, [token], { staff, viewerId: signedIn.userId }))[0] as QueueToken;
}

function requireSignedIn(caller: Caller): SignedInCaller {
  if (caller.kind !== 'user')
    throw new AppError('unauthorized', 'Sign in to take a place in the queue.');
  return caller;
}

/** The token as the caller may see it, with its live position and estimated wait. */
async function present(
  deps: TokensDeps,
  rows: readonly TokenRow[],
  view: { staff: boolean; viewerId?: string },
): Promise<QueueToken[]> {
  const sessionIds = [...new Set(rows.map((row) => row.sessionId))];
  const positions = new Map<string, { position: number; waitMinutes: number }>();
  const queueOf = new Map<string, string>();
  const now = deps.clock();
  for (const sessionId of sessionIds) {
    const session = await repo.findSessionContext(deps.db, sessionId);
    if (!session) continue;
    queueOf.set(sessionId, session.queueId);
    const line = await repo.waitingLine(deps.db, sessionId, now);
    const perToken = await secondsPerToken(deps, session);
    line.forEach((entry, index) => {
      positions.set(entry.id, {
        position: index + 1,
        waitMinutes: Math.ceil(((index + 1) * perToken) / 60),
      });
    });
  }
  return rows.map((row) => {
    const place = positions.get(row.id);
    const mayReadContact =
      view.staff || (view.viewerId !== undefined && row.userId === view.viewerId);
    return {
      id: row.id,
      sessionId: row.sessionId,
      queueId: queueOf.get(row.sessionId) ?? '',
      number: row.number,
      displayNumber: row.displayNumber,
      kind: row.kind,
      status: row.status,
      serviceId: row.sessionServiceId,
      slotNo: row.slotNo,
      slotStartsAt: row.slotStartsAt?.toISOString() ?? null,
      visitorName: row.visitorName,
      visitorEmail: mayReadContact ? row.visitorEmail : null,
      visitorPhone: mayReadContact ? row.visitorPhone : null,
      priority: row.priority,
      notes: view.staff ? row.notes : '',
      joinedAt: row.joinedAt.toISOString(),
      calledAt: row.calledAt?.toISOString() ?? null,
      completedAt: row.completedAt?.toISOString() ?? null,
      cancelledAt: row.cancelledAt?.toISOString() ?? null,
      cancelReason: row.cancelReason,
      serviceSeconds: row.serviceSeconds,
      position: place?.position ?? null,
      estimatedWaitMinutes: place?.waitMinutes ?? null,
    };
  });
}

export async function queryTokens(deps: TokensDeps, caller: Caller, input: TokensQueryInput) {
  if (caller.kind !== 'user') throw new AppError('unauthorized', 'Sign in to see tokens.');
  let staff = false;
  if (input.sessionId) {
    const session = await repo.findSessionContext(deps.db, input.sessionId);
    if (!session) throw notFound();
    staff = await isCompanyMember(deps.db, caller, session.companyId);
  }
  // Visitors only ever see their own tokens; staff see the whole session.
  const rows = await repo.listTokens(deps.db, {
    sessionId: input.sessionId,
    userId: staff && !input.mine ? undefined : caller.userId,
    statuses: input.statuses,
    kind: input.kind,
  });
  return present(
    deps,
    rows.map((row) => row.token),
    { staff, viewerId: caller.userId },
  );
}

export async function slotTokens(
  deps: TokensDeps,
  caller: Caller,
  sessionId: string,
  slotNo: number,
) {
  const session = await repo.findSessionContext(deps.db, sessionId);
  if (!session) throw notFound();
  await requireStaff(deps.db, caller, session);
  const rows = await repo.listTokens(deps.db, { sessionId, slotNo, kind: 'booking' });
  return present(
    deps,
    rows.map((row) => row.token),
    { staff: true },
  );
}

export async function cancelToken(
  deps: TokensDeps,
  caller: Caller,
  input: { tokenId: string; reason?: string | undefined },
) {
  const { token, session } = await deps.db.transaction(async (tx) => {
    const existing = await repo.findToken(tx, input.tokenId);
    if (!existing) throw new AppError('token_not_found', 'This token does not exist.');
    const locked = await repo.lockSessionContext(tx, existing.sessionId);
    if (!locked) throw notFound();
    const current = await repo.lockToken(tx, input.tokenId);
    if (!current) throw new AppError('token_not_found', 'This token does not exist.');
    const { holder } = await requireHolderOrStaff(tx, caller, current, locked);
    if (!['pending_payment', 'booked', 'waiting', 'called'].includes(current.status)) {
      throw new AppError(
        'invalid_token_transition',
        `A ${current.status.replace('_', ' ')} token cannot be cancelled.`,
        { from: current.status, to: 'cancelled' },
      );
    }
    const now = deps.clock();
    const reason = input.reason ?? (holder ? 'cancelled_by_visitor' : 'cancelled_by_staff');
    const cancelled = await repo.updateToken(tx, current.id, {
      status: 'cancelled',
      cancelledAt: now,
      cancelReason: reason,
      updatedAt: now,
    });
    if (current.sessionServiceId && current.slotNo !== null) {
      await repo.changeBookedCount(tx, current.sessionServiceId, current.slotNo, -1);
    }
    return { token: cancelled, session: locked };
  });
  await publishCancelled(deps, [token]);
  await publishSessionState(deps, session.sessionId);
  await publishWaitingLine(deps, session);
  return (await present(deps, [token], { staff: true }))[0] as QueueToken;
}

function serviceSecondsOf(token: TokenRow, now: Date): number {
  const started = token.servingStartedAt ?? token.calledAt ?? now;
  return Math.max(0, Math.round((now.getTime() - started.getTime()) / 1000));
}

/**
 * Completes what this staff member was serving and calls the next token by the order of
 * service. The session row lock serialises callers of one session; SKIP LOCKED keeps a
 * token from ever being handed to two of them.
 */
export async function nextToken(deps: TokensDeps, caller: Caller, sessionId: string) {
  const result = await deps.db.transaction(async (tx) => {
    const session = await repo.lockSessionContext(tx, sessionId);
    if (!session) throw notFound();
    const staff = await requireStaff(tx, caller, session);
    if (session.status !== 'open') {
      throw new AppError('session_not_open', 'Open the session before calling tokens.', {
        status: session.status,
      });
    }
    const now = deps.clock();
    let completed: TokenRow | null = null;
    for (const active of await repo.activeTokensOf(tx, sessionId, staff.userId)) {
      completed = await repo.updateToken(tx, active.id, {
        status: 'served',
        completedAt: now,
        serviceSeconds: serviceSecondsOf(active, now),
        updatedAt: now,
      });
    }
    await repo.admitBookings(tx, sessionId, now);
    const next = await repo.claimNextWaiting(tx, sessionId, now);
    let called: TokenRow | null = null;
    if (next) {
      called = await repo.updateToken(tx, next.id, {
        status: 'called',
        calledAt: now,
        calledBy: staff.userId,
        updatedAt: now,
      });
      await repo.setNowServing(tx, sessionId, next.number, now);
      await notifyHolder(tx, deps, now, 'called', session, called);
      await notifyTurnApproaching(tx, deps, session, now);
    }
    return { session, completed, called };
  });
  if (result.called) {
    await publishNowServing(deps, result.session, result.called, false);
    await publishCalled(deps, result.session, result.called);
  }
  await publishSessionState(deps, sessionId);
  await publishWaitingLine(deps, result.session);
  // One pass over the session's line for both answers.
  const shown = await present(
    deps,
    [result.completed, result.called].filter((token) => token !== null),
    { staff: true },
  );
  const byId = (token: TokenRow | null) => shown.find((row) => row.id === token?.id) ?? null;
  return { completed: byId(result.completed), called: byId(result.called) };
}

/** The holder who just reached the queue's threshold hears it once (dedupe per token). */
async function notifyTurnApproaching(tx: Tx, deps: TokensDeps, session: SessionContext, now: Date) {
  const threshold = session.turnApproachingThreshold;
  if (threshold < 1) return;
  const line = await repo.waitingLine(tx, session.sessionId, now);
  const entry = line[threshold - 1];
  if (!entry) return;
  const token = await repo.findToken(tx, entry.id);
  if (!token) return;
  await notifyHolder(
    tx,
    deps,
    now,
    'turn_approaching',
    session,
    token,
    { position: threshold },
    { dedupe: `turn:${token.id}` },
  );
}

const actionRules: Record<TokenAction, { from: readonly string[]; to: TokenRow['status'] }> = {
  recall: { from: ['called'], to: 'called' },
  'no-show': { from: ['called'], to: 'no_show' },
  requeue: { from: ['called', 'serving'], to: 'waiting' },
  start: { from: ['called'], to: 'serving' },
  complete: { from: ['called', 'serving'], to: 'served' },
};

/** Recall, no-show, requeue, start serving and complete, by the rules of PRODUCT.md. */
export async function actOnToken(
  deps: TokensDeps,
  caller: Caller,
  tokenId: string,
  action: TokenAction,
) {
  const { token, session } = await deps.db.transaction(async (tx) => {
    const existing = await repo.findToken(tx, tokenId);
    if (!existing) throw new AppError('token_not_found', 'This token does not exist.');
    const session = await repo.lockSessionContext(tx, existing.sessionId);
    if (!session) throw notFound();
    await requireStaff(tx, caller, session);
    const current = await repo.lockToken(tx, tokenId);
    if (!current) throw new AppError('token_not_found', 'This token does not exist.');
    const rule = actionRules[action];
    if (!rule.from.includes(current.status)) {
      throw new AppError(
        'invalid_token_transition',
        `Cannot ${action.replace('-', ' ')} a ${current.status.replace('_', ' ')} token.`,
        { from: current.status, action },
      );
    }
    const now = deps.clock();
    const changes: Partial<repo.NewToken> = { status: rule.to, updatedAt: now };
    if (action === 'recall') changes.recallCount = current.recallCount + 1;
    if (action === 'start') changes.servingStartedAt = now;
    if (action === 'complete') {
      changes.completedAt = now;
      changes.serviceSeconds = serviceSecondsOf(current, now);
    }
    if (action === 'no-show') changes.completedAt = now;
    if (action === 'requeue') {
      changes.calledAt = null;
      changes.calledBy = null;
      changes.servingStartedAt = null;
    }
    const updated = await repo.updateToken(tx, tokenId, changes);
    if (action === 'recall') await notifyHolder(tx, deps, now, 'called', session, updated);
    return { token: updated, session };
  });
  if (action === 'recall') {
    await publishNowServing(deps, session, token, true);
    await publishCalled(deps, session, token);
  }
  await publishSessionState(deps, session.sessionId);
  await publishWaitingLine(deps, session);
  return (await present(deps, [token], { staff: true }))[0] as QueueToken;
}

/** Staff correct how long a service took (the figure the estimates learn from). */
export async function recordServiceTime(
  deps: TokensDeps,
  caller: Caller,
  input: { tokenId: string; seconds: number },
) {
  const token = await deps.db.transaction(async (tx) => {
    const existing = await repo.findToken(tx, input.tokenId);
    if (!existing) throw new AppError('token_not_found', 'This token does not exist.');
    const session = await repo.findSessionContext(tx, existing.sessionId);
    if (!session) throw notFound();
    await requireStaff(tx, caller, session);
    if (existing.status !== 'served') {
      throw new AppError('invalid_token_transition', 'Only a served token has a service time.', {
        from: existing.status,
      });
    }
    return repo.updateToken(tx, existing.id, {
      serviceSeconds: input.seconds,
      updatedAt: deps.clock(),
    });
  });
  return (await present(deps, [token], { staff: true }))[0] as QueueToken;
}

export async function serviceTimeQuery(
  deps: TokensDeps,
  caller: Caller,
  input: {
    queueId?: string | undefined;
    sessionId?: string | undefined;
    from?: string | undefined;
    to?: string | undefined;
  },
) {
  if (caller.kind !== 'user') throw new AppError('unauthorized', 'Sign in to continue.');
  const companyId = input.sessionId
    ? (await repo.findSessionContext(deps.db, input.sessionId))?.companyId
    : await repo.companyOfQueue(deps.db, input.queueId as string);
  if (!companyId || !(await isCompanyMember(deps.db, caller, companyId))) {
    throw new AppError('forbidden', 'Only the staff of this company can see its figures.');
  }
  const stats = await repo.serviceTimeStats(deps.db, input);
  const round = (value: number | null | undefined) =>
    value === null || value === undefined ? null : Math.round(value * 10) / 10;
  return {
    tokens: stats?.tokens ?? 0,
    serviceSeconds: {
      average: round(stats?.serviceAverage),
      median: round(stats?.serviceMedian),
      p90: round(stats?.serviceP90),
    },
    waitSeconds: {
      average: round(stats?.waitAverage),
      median: round(stats?.waitMedian),
      p90: round(stats?.waitP90),
    },
  };
}

export async function bookingDetails(deps: TokensDeps, caller: Caller, tokenId: string) {
  const token = await repo.findToken(deps.db, tokenId);
  if (token?.kind !== 'booking' || !token.sessionServiceId || token.slotNo === null) {
    throw new AppError('token_not_found', 'This booking does not exist.');
  }
  const session = await repo.findSessionContext(deps.db, token.sessionId);
  if (!session) throw notFound();
  const { staff } = await requireHolderOrStaff(deps.db, caller, token, session);
  const slot = await repo.bookingContext(deps.db, token.sessionServiceId, token.slotNo);
  if (!slot) throw new AppError('slot_not_found', 'This slot does not exist.');
  const [presented] = await present(deps, [token], {
    staff,
    ...(caller.kind === 'user' ? { viewerId: caller.userId } : {}),
  });
  const timeIn = (instant: Date) =>
    instant.toLocaleTimeString('en-GB', {
      timeZone: session.timezone,
      hour: '2-digit',
      minute: '2-digit',
    });
  return {
    token: presented as QueueToken,
    companyName: session.companyName,
    queueName: session.queueName,
    serviceName: slot.serviceName,
    timezone: session.timezone,
    date: session.date,
    startTime: timeIn(slot.slotStartsAt),
    endTime: timeIn(slot.slotEndsAt),
    calendar: calendarFor(deps, session, token, slot, deps.clock()),
  };
}

/**
 * What a waiting-room screen shows: anyone may read it for sessions of active public or
 * unlisted queues; private queues' boards only for their company's staff.
 */
export async function sessionBoard(deps: TokensDeps, caller: Caller, sessionId: string) {
  const session = await repo.findSessionContext(deps.db, sessionId);
  if (!session) throw notFound();
  const open = session.queueStatus === 'active' && session.visibility !== 'private';
  if (!open && !(await isCompanyMember(deps.db, caller, session.companyId))) throw notFound();
  const counts = await repo.sessionCounts(deps.db, sessionId);
  const called = await repo.lastCalled(deps.db, sessionId, 6);
  const [current, ...earlier] = called;
  return {
    sessionId,
    companyName: session.companyName,
    queueName: session.queueName,
    status: session.status,
    nowServing: current?.displayNumber ?? null,
    nowServingCounter: current ? session.subQueueName : null,
    recentlyCalled: earlier.map((row) => row.displayNumber),
    waiting: (counts.waiting ?? 0) + (counts.booked ?? 0),
    averageServiceSeconds: Math.round(await secondsPerToken(deps, session)),
  };
}
