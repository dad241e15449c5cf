import { randomUUID } from 'node:crypto';
import {
  type DeleteSessionInput,
  type EditSessionInput,
  MAX_SERIES_OCCURRENCES,
  type ScheduleResult,
  type ScheduleSessionInput,
  type Session,
  type SessionConflict,
  type SessionQuery,
  type SessionService,
  type SessionServiceInput,
  type SessionStatus,
  type Slot,
  type SlotsStatusInput,
  sessionTransitions,
} from '@upnext/contract/sessions';
import type { Db, Tx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import type { EventPublisher } from '../../lib/events.ts';
import { allowedAmong, approvedQueuesOf, notFoundError } from '../access/access.ts';
import type { Caller } from '../access/caller.ts';
import { requireUser } from '../access/caller.ts';
import { type RefundJob, runRefunds } from '../payments/payments.refunds.ts';
import type { PaymentsRuntime } from '../payments/providers.ts';
import { publishCancelled, publishSessionChange } from '../tokens/tokens.events.ts';
import { cancelSessionTokens } from '../tokens/tokens.notifications.ts';
import { settleCancelledToken } from '../tokens/tokens.payments.ts';
import { sessionCounts, type TokenRow } from '../tokens/tokens.repository.ts';
import { hhmm, localTimeOf, occurrenceDates, slotWindows } from './sessions.plan.ts';
import {
  requireSessionManager,
  requireSessionOperator,
  requireSessionReader,
} from './sessions.policy.ts';
import * as repo from './sessions.repository.ts';
import { assignedSubQueueIds } from './sessions.staff.ts';

export type SessionsDeps = {
  db: Db;
  clock: Clock;
  publisher: EventPublisher;
  /** For the tokens a cancellation touches: their holders' links and whether to text them. */
  publicUrl: string;
  smsEnabled: boolean;
  /** Refunds of paid visits when a session is cancelled. */
  payments: PaymentsRuntime;
};

type Queryable = Db | Tx;
type Window = { date: string; startTime: string; endTime: string };
type Planned = Window & { startsAt: Date; endsAt: Date };

/** validation_failed in the same shape as schema failures: `details.issues[].field`. */
function invalid(field: string, message: string): AppError {
  return new AppError('validation_failed', `The request is invalid. ${field}: ${message}`, {
    issues: [{ field, message }],
  });
}

const serviceNotFound = () => new AppError('not_found', 'This service does not exist.');

/**
 * Sessions as the API answers them: live counts from their token rows (the tokens module's
 * one count), staff notes only for the company's members.
 */
async function toSessions(
  db: Queryable,
  now: Date,
  rows: readonly repo.SessionView[],
  isMember: (companyId: string) => boolean,
): Promise<Session[]> {
  const counts = await sessionCounts(
    db,
    rows.map((view) => view.session.id),
    now,
  );
  return rows.map((view) => {
    const s = view.session;
    return {
      id: s.id,
      queueId: s.queueId,
      queueName: view.queueName,
      companyId: view.companyId,
      subQueueId: s.subQueueId,
      subQueueName: view.subQueueName,
      date: s.date,
      startTime: hhmm(s.startTime),
      endTime: hhmm(s.endTime),
      timezone: s.timezone,
      startsAt: s.startsAt.toISOString(),
      endsAt: s.endsAt.toISOString(),
      capacity: s.capacity,
      status: s.status,
      online: s.online,
      notes: isMember(view.companyId) ? s.notes : '',
      visitorNotes: s.visitorNotes,
      seriesId: s.seriesId,
      counts: counts.get(s.id) as Session['counts'],
    };
  });
}

const member = () => true;

/** Sessions by id for their company's managers and staff. */
async function views(db: Queryable, now: Date, ids: string[]): Promise<Session[]> {
  return toSessions(db, now, await repo.findSessionViews(db, ids), member);
}

async function queueOf(db: Queryable, queueId: string) {
  const queue = await repo.findQueueContext(db, queueId);
  if (!queue) throw notFoundError.queue();
  return queue;
}

async function checkSubQueue(db: Queryable, queueId: string, subQueueId: string, field: string) {
  const sub = await repo.findSubQueue(db, subQueueId);
  if (!sub || sub.queueId !== queueId) throw invalid(field, 'Not a sub-queue of this queue');
}

async function checkServiceTypes(
  db: Queryable,
  queueId: string,
  services: readonly SessionServiceInput[],
  field: (index: number) => string,
) {
  const found = await repo.findServiceTypes(
    db,
    services.map((s) => s.serviceTypeId),
  );
  services.forEach((service, index) => {
    const type = found.find((t) => t.id === service.serviceTypeId);
    if (!type || type.queueId !== queueId) {
      throw invalid(field(index), 'Not a service type of this queue');
    }
    if (!type.active) throw invalid(field(index), 'This service type is inactive');
  });
}

/** Windows to instants; a window that a daylight-saving gap empties is refused. */
async function plan(
  db: Queryable,
  timezone: string,
  windows: Window[],
  field: string,
): Promise<Planned[]> {
  const instants = await repo.toInstants(db, timezone, windows);
  return windows.map((window, index) => {
    const instant = instants[index];
    if (!instant || instant.endsAt <= instant.startsAt) {
      throw invalid(field, `The window on ${window.date} is empty in ${timezone}`);
    }
    return { ...window, ...instant };
  });
}

/** Existing live sessions on the line overlapping each planned window (touching is fine). */
async function conflictsFor(
  db: Queryable,
  line: { queueId: string; subQueueId: string | null },
  planned: Planned[],
  excludeIds: string[],
): Promise<SessionConflict[][]> {
  if (planned.length === 0) return [];
  const from = new Date(Math.min(...planned.map((p) => p.startsAt.getTime())));
  const to = new Date(Math.max(...planned.map((p) => p.endsAt.getTime())));
  const existing = await repo.sessionsOnLineBetween(db, line, from, to, excludeIds);
  return planned.map((p) =>
    existing
      .filter((e) => e.startsAt < p.endsAt && e.endsAt > p.startsAt)
      .map((e) => ({
        plannedDate: p.date,
        sessionId: e.id,
        date: e.date,
        startTime: hhmm(e.startTime),
        endTime: hhmm(e.endTime),
        status: e.status,
        subQueueId: e.subQueueId,
      })),
  );
}

function overlapError(conflicts: SessionConflict[]): AppError {
  const first = conflicts[0];
  const where = first ? ` (the session on ${first.date}, ${first.startTime}–${first.endTime})` : '';
  return new AppError(
    'session_overlap',
    `This overlaps ${conflicts.length === 1 ? 'another session' : `${conflicts.length} sessions`} on the same line${where}.`,
    { conflicts },
  );
}

async function generateSlots(
  tx: Tx,
  service: { id: string; slotMinutes: number; capacityPerSlot: number },
  session: { startsAt: Date; endsAt: Date },
) {
  const windows = slotWindows(session.startsAt, session.endsAt, service.slotMinutes);
  await repo.replaceSlots(
    tx,
    service.id,
    windows.map((w) => ({ ...w, capacity: service.capacityPerSlot })),
  );
}

/** POST /queues/sessions/schedule: one session or a weekly series, or a preview of it. */
export async function scheduleSessions(
  deps: SessionsDeps,
  caller: Caller,
  input: ScheduleSessionInput,
): Promise<ScheduleResult> {
  const queue = await queueOf(deps.db, input.queueId);
  await requireSessionManager(deps.db, caller, queue);
  if (queue.status === 'archived') {
    throw new AppError('conflict', 'This queue is archived; restore it before scheduling.', {
      queueId: queue.id,
    });
  }
  const subQueueId = input.subQueueId ?? null;
  if (subQueueId) await checkSubQueue(deps.db, queue.id, subQueueId, 'body.subQueueId');
  const services = input.services ?? [];
  await checkServiceTypes(deps.db, queue.id, services, (i) => `body.services.${i}.serviceTypeId`);

  const dates = occurrenceDates(input.date, input.recurrence);
  if (dates.length === 0) {
    throw invalid(
      'body.recurrence.weekdays',
      'No date between the first date and "until" falls on these weekdays',
    );
  }
  if (dates.length > MAX_SERIES_OCCURRENCES) {
    throw invalid(
      'body.recurrence.until',
      `A series has at most ${MAX_SERIES_OCCURRENCES} sessions`,
    );
  }
  const notInSeries = (input.skipDates ?? []).find((date) => !dates.includes(date));
  if (notInSeries) throw invalid('body.skipDates', `${notInSeries} is not a date of this series`);
  const line = { queueId: queue.id, subQueueId };
  const windows = dates.map((date) => ({
    date,
    startTime: input.startTime,
    endTime: input.endTime,
  }));

  const run = async (db: Queryable, save: Tx | null): Promise<ScheduleResult> => {
    if (save) await repo.lockQueueSchedule(save, queue.id);
    const planned = await plan(db, queue.timezone, windows, 'body.endTime');
    const perOccurrence = await conflictsFor(db, line, planned, []);
    // A series may leave out dates: named ones, or (skipConflicts) every clashing one.
    const skipped = planned.map(
      (p, i) =>
        (input.skipDates ?? []).includes(p.date) ||
        (input.skipConflicts === true && (perOccurrence[i] ?? []).length > 0),
    );
    const conflicts = perOccurrence.filter((_, i) => !skipped[i]).flat();
    const result = {
      preview: save === null,
      timezone: queue.timezone,
      planned: planned.map((p, i) => ({
        date: p.date,
        startTime: p.startTime,
        endTime: p.endTime,
        startsAt: p.startsAt.toISOString(),
        endsAt: p.endsAt.toISOString(),
        conflicts: perOccurrence[i] ?? [],
        skipped: skipped[i] ?? false,
      })),
      conflicts,
    };
    if (!save) return { ...result, seriesId: null, sessions: [] };
    if (conflicts.length > 0) throw overlapError(conflicts);
    const kept = planned.filter((_, i) => !skipped[i]);
    if (kept.length === 0) throw invalid('body.skipDates', 'Every date of the series is skipped');

    const seriesId = input.recurrence?.kind === 'weekly' ? randomUUID() : null;
    const rows = await repo.insertSessions(
      save,
      kept.map((p) => ({
        queueId: queue.id,
        subQueueId,
        date: p.date,
        startTime: p.startTime,
        endTime: p.endTime,
        timezone: queue.timezone,
        startsAt: p.startsAt,
        endsAt: p.endsAt,
        capacity: input.capacity,
        online: input.online ?? false,
        notes: input.notes ?? '',
        visitorNotes: input.visitorNotes ?? '',
        seriesId,
      })),
    );
    for (const row of rows) {
      for (const service of services) {
        const created = await repo.insertService(save, { sessionId: row.id, ...service });
        await generateSlots(save, created, row);
      }
    }
    return {
      ...result,
      seriesId,
      sessions: await views(
        save,
        deps.clock(),
        rows.map((r) => r.id),
      ),
    };
  };

  if (input.preview) return run(deps.db, null);
  return deps.db.transaction((tx) => run(tx, tx));
}

/** This session, or it and the later ones of its series, locked; cancelled later ones skipped when asked. */
async function targetsOf(
  tx: Tx,
  session: repo.SessionRow,
  scope: 'this' | 'following',
  skipCancelled: boolean,
) {
  if (scope === 'this' || !session.seriesId) return [session];
  const rows = await repo.lockSeriesFrom(tx, session.seriesId, session.startsAt);
  return rows.filter((r) => r.id === session.id || !(skipCancelled && r.status === 'cancelled'));
}

/**
 * SEAM for the tokens module: a session with issued tokens (or booked slots) is fixed; the
 * tokens module may extend this with its own rows.
 */
async function refuseWithTokens(tx: Tx, targets: repo.SessionRow[]) {
  const booked = new Set(
    await repo.sessionsWithBookings(
      tx,
      targets.map((t) => t.id),
    ),
  );
  const withTokens = targets.filter((t) => t.lastIssuedNumber > 0 || booked.has(t.id));
  if (withTokens.length > 0) {
    throw new AppError(
      'session_has_tokens',
      'Tokens or bookings exist for this session; cancel the session instead.',
      { sessionIds: withTokens.map((t) => t.id) },
    );
  }
}

async function lockedSession(tx: Tx, sessionId: string) {
  const session = await repo.lockSession(tx, sessionId);
  if (!session) throw notFoundError.session();
  return session;
}

/** POST /queues/sessions/edit: only scheduled sessions without tokens change. */
export async function editSessions(
  deps: SessionsDeps,
  caller: Caller,
  input: EditSessionInput,
): Promise<Session[]> {
  const { changes } = input;
  // Notes change while a session runs too ("Running 15 minutes late"); anything else only
  // before it opens.
  const notesOnly = Object.keys(changes).every((k) => k === 'notes' || k === 'visitorNotes');
  const editable: readonly SessionStatus[] = notesOnly
    ? ['scheduled', 'open', 'paused']
    : ['scheduled'];
  const edited = await deps.db.transaction(async (tx) => {
    const first = await repo.findSessionView(tx, input.sessionId);
    if (!first) throw notFoundError.session();
    const queue = await queueOf(tx, first.session.queueId);
    await requireSessionManager(tx, caller, queue, first.session);
    await repo.lockQueueSchedule(tx, queue.id);
    const session = await lockedSession(tx, input.sessionId);
    const targets = await targetsOf(tx, session, input.scope, true);

    const locked = targets.filter((t) => !editable.includes(t.status));
    if (locked.length > 0) {
      throw new AppError(
        'session_not_editable',
        notesOnly
          ? `Notes of a ${locked[0]?.status} session cannot change.`
          : `Only scheduled sessions can be edited; this one is ${locked[0]?.status}.`,
        { sessions: locked.map((t) => ({ sessionId: t.id, status: t.status })) },
      );
    }
    if (notesOnly) {
      for (const target of targets) {
        await repo.updateSession(tx, target.id, { ...changes, updatedAt: deps.clock() });
      }
      return views(
        tx,
        deps.clock(),
        targets.map((t) => t.id),
      );
    }
    await refuseWithTokens(tx, targets);

    if (changes.subQueueId) {
      await checkSubQueue(tx, queue.id, changes.subQueueId, 'body.changes.subQueueId');
    }
    const windows = targets.map((t) => ({
      date: changes.date ?? t.date,
      startTime: changes.startTime ?? hhmm(t.startTime),
      endTime: changes.endTime ?? hhmm(t.endTime),
    }));
    for (const w of windows) {
      if (w.endTime <= w.startTime) {
        throw invalid('body.changes.endTime', 'Must be after the start time');
      }
    }
    const planned = await plan(tx, queue.timezone, windows, 'body.changes.endTime');
    const subQueueId = changes.subQueueId === undefined ? null : changes.subQueueId;
    const excluded = targets.map((t) => t.id);
    const conflicts: SessionConflict[] = [];
    for (const [index, target] of targets.entries()) {
      const p = planned[index] as Planned;
      const line = {
        queueId: queue.id,
        subQueueId: changes.subQueueId === undefined ? target.subQueueId : subQueueId,
      };
      conflicts.push(...(await conflictsFor(tx, line, [p], excluded)).flat());
    }
    if (conflicts.length > 0) throw overlapError(conflicts);

    for (const [index, target] of targets.entries()) {
      const p = planned[index] as Planned;
      const updated = await repo.updateSession(tx, target.id, {
        date: p.date,
        startTime: p.startTime,
        endTime: p.endTime,
        startsAt: p.startsAt,
        endsAt: p.endsAt,
        ...(changes.subQueueId === undefined ? {} : { subQueueId }),
        ...(changes.capacity === undefined ? {} : { capacity: changes.capacity }),
        ...(changes.online === undefined ? {} : { online: changes.online }),
        ...(changes.notes === undefined ? {} : { notes: changes.notes }),
        ...(changes.visitorNotes === undefined ? {} : { visitorNotes: changes.visitorNotes }),
        updatedAt: deps.clock(),
      });
      const moved =
        updated.startsAt.getTime() !== target.startsAt.getTime() ||
        updated.endsAt.getTime() !== target.endsAt.getTime();
      if (moved) {
        for (const { service } of await repo.servicesOf(tx, [target.id])) {
          await generateSlots(tx, service, updated);
        }
      }
    }
    return views(tx, deps.clock(), excluded);
  });
  // Visitors watching a running session see its new notes at once.
  for (const session of edited) {
    if (session.status === 'open' || session.status === 'paused') {
      await publishSessionChange(deps, session.id);
    }
  }
  return edited;
}

/** POST /queues/sessions/delete: scheduled or cancelled sessions without tokens. */
export async function deleteSessions(
  deps: SessionsDeps,
  caller: Caller,
  input: DeleteSessionInput,
): Promise<string[]> {
  return deps.db.transaction(async (tx) => {
    const first = await repo.findSessionView(tx, input.sessionId);
    if (!first) throw notFoundError.session();
    const queue = await queueOf(tx, first.session.queueId);
    await requireSessionManager(tx, caller, queue, first.session);
    await repo.lockQueueSchedule(tx, queue.id);
    const session = await lockedSession(tx, input.sessionId);
    const targets = await targetsOf(tx, session, input.scope, false);
    const locked = targets.filter((t) => t.status !== 'scheduled' && t.status !== 'cancelled');
    if (locked.length > 0) {
      throw new AppError(
        'session_not_editable',
        `Only scheduled or cancelled sessions can be deleted; this one is ${locked[0]?.status}.`,
        { sessions: locked.map((t) => ({ sessionId: t.id, status: t.status })) },
      );
    }
    await refuseWithTokens(tx, targets);
    const ids = targets.map((t) => t.id);
    await repo.deleteSessions(tx, ids);
    return ids;
  });
}

/** POST /queues/sessions/status: scheduled → open ⇄ paused → closed; not closed → cancelled. */
export async function changeSessionStatus(
  deps: SessionsDeps,
  caller: Caller,
  input: { sessionId: string; status: SessionStatus },
): Promise<Session> {
  let cancelledTokens: TokenRow[] = [];
  const refunds: RefundJob[] = [];
  const session = await deps.db.transaction(async (tx) => {
    const first = await repo.findSessionView(tx, input.sessionId);
    if (!first) throw notFoundError.session();
    const queue = await queueOf(tx, first.session.queueId);
    await requireSessionOperator(tx, caller, queue, first.session, { status: input.status });
    const current = await lockedSession(tx, input.sessionId);
    if (!sessionTransitions[current.status].includes(input.status)) {
      throw new AppError(
        'invalid_transition',
        `A ${current.status} session cannot become ${input.status}.`,
        { from: current.status, to: input.status },
      );
    }
    const now = deps.clock();
    await repo.updateSession(tx, current.id, { status: input.status, updatedAt: now });
    // Cancelling a session cancels its live tokens and tells their holders; what they paid
    // is refunded in full, open payment holds are closed.
    if (input.status === 'cancelled') {
      cancelledTokens = await cancelSessionTokens(tx, deps, now, current.id);
      for (const token of cancelledTokens) {
        refunds.push(
          ...(await settleCancelledToken(tx, token, false, 100, 'session_cancelled', now, {
            freePlace: false,
          })),
        );
      }
    }
    const [view] = await views(tx, now, [current.id]);
    if (!view) throw notFoundError.session();
    return view;
  });
  await runRefunds(deps, refunds);
  await publishCancelled(deps, cancelledTokens);
  await publishSessionChange(deps, session.id);
  return session;
}

/** GET /queues/{queueId}/sessions: members see all; others public/unlisted, live ones only. */
export async function listQueueSessions(
  deps: SessionsDeps,
  caller: Caller,
  queueId: string,
  query: { from?: string | undefined; to?: string | undefined; status?: SessionStatus | undefined },
): Promise<Session[]> {
  const queue = await queueOf(deps.db, queueId);
  const access = await requireSessionReader(deps.db, caller, queue);
  const rows = await repo.querySessions(deps.db, {
    queueId,
    from: query.from,
    to: query.to,
    statuses: query.status ? [query.status] : undefined,
    todayZone: caller.timezone,
    now: deps.clock(),
    memberCompanyIds: access === 'member' ? [queue.companyId] : [],
    // Access to this queue was checked above (private ones need an approved request).
    visibilities: ['public', 'unlisted', 'private'],
    limit: 500,
    offset: 0,
  });
  return toSessions(deps.db, deps.clock(), rows, () => access === 'member');
}

/** A session readable by the caller, or 404. */
async function readableSession(deps: SessionsDeps, caller: Caller, sessionId: string) {
  const view = await repo.findSessionView(deps.db, sessionId);
  if (!view) throw notFoundError.session();
  const queue = await queueOf(deps.db, view.session.queueId);
  const access = await requireSessionReader(deps.db, caller, queue, view.session);
  return { view, queue, access };
}

/** GET /company/queues/{queueId}/sessions/{sessionId}. */
export async function getSession(
  deps: SessionsDeps,
  caller: Caller,
  queueId: string,
  sessionId: string,
): Promise<Session> {
  const { view, access } = await readableSession(deps, caller, sessionId);
  if (view.session.queueId !== queueId) throw notFoundError.session();
  const [session] = await toSessions(deps.db, deps.clock(), [view], () => access === 'member');
  return session as Session;
}

/**
 * GET /queues/sessions: the caller's sessions on a day (today in X-user-timezone, else in
 * each company's zone): all sessions of companies they own or administer, and those of the
 * sub-queues they are assigned to as staff.
 */
export async function mySessions(
  deps: SessionsDeps,
  caller: Caller,
  date: string | undefined,
): Promise<Session[]> {
  const user = requireUser(caller);
  const memberships = await repo.membershipsOf(deps.db, user.userId);
  const companyIds = memberships
    .filter((m) => m.role === 'owner' || m.role === 'admin')
    .map((m) => m.companyId);
  const staffOf = new Set(memberships.filter((m) => m.role === 'staff').map((m) => m.companyId));
  const subQueueIds = staffOf.size > 0 ? await assignedSubQueueIds(deps.db, user.userId) : [];
  const rows = await repo.sessionsOnDay(deps.db, {
    subQueueIds,
    companyIds,
    date,
    todayZone: caller.timezone,
    now: deps.clock(),
  });
  // An assignment outlives a membership only until the membership goes: keep current staff's.
  const current = rows.filter((r) => companyIds.includes(r.companyId) || staffOf.has(r.companyId));
  return toSessions(deps.db, deps.clock(), current, member);
}

/**
 * POST /queues/sessions/query: what the caller may read (the access rule decides, over
 * candidates the query narrows to listed queues, private ones the caller was approved for and
 * the caller's companies).
 */
export async function querySessions(
  deps: SessionsDeps,
  caller: Caller,
  query: SessionQuery,
): Promise<Session[]> {
  const memberships =
    caller.kind === 'user' ? await repo.membershipsOf(deps.db, caller.userId) : [];
  const rows = await repo.querySessions(deps.db, {
    queueId: query.queueId,
    companyId: query.companyId,
    subQueueId: query.subQueueId,
    from: query.from,
    to: query.to,
    statuses: query.status,
    todayZone: caller.timezone,
    now: deps.clock(),
    memberCompanyIds: memberships.map((m) => m.companyId),
    // A queue asked for by id was reached through its link: unlisted is fine then.
    visibilities: query.queueId === undefined ? ['public'] : ['public', 'unlisted'],
    privateQueueIds: await approvedQueuesOf(deps.db, caller),
    limit: query.limit,
    offset: query.offset,
  });
  const readable = await allowedAmong(
    deps.db,
    caller,
    'session.read',
    rows.map((row) => ({
      kind: 'session' as const,
      sessionId: row.session.id,
      subQueueId: row.session.subQueueId,
      queueId: row.session.queueId,
      companyId: row.companyId,
      queueStatus: row.queueStatus,
      visibility: row.visibility,
      row,
    })),
  );
  const memberOf = new Set(memberships.map((m) => m.companyId));
  return toSessions(
    deps.db,
    deps.clock(),
    readable.map((target) => target.row),
    (companyId) => memberOf.has(companyId),
  );
}

async function toServices(db: Queryable, sessionIds: string[]): Promise<SessionService[]> {
  const rows = await repo.servicesOf(db, sessionIds);
  const counts = await repo.slotCounts(
    db,
    rows.map((r) => r.service.id),
  );
  return rows.map(({ service, serviceTypeName }) => ({
    id: service.id,
    sessionId: service.sessionId,
    serviceTypeId: service.serviceTypeId,
    serviceTypeName,
    slotMinutes: service.slotMinutes,
    capacityPerSlot: service.capacityPerSlot,
    slotCount: counts.get(service.id) ?? 0,
  }));
}

/** GET /queues/sessions/{sessionId}/services. */
export async function listServices(
  deps: SessionsDeps,
  caller: Caller,
  sessionId: string,
): Promise<SessionService[]> {
  await readableSession(deps, caller, sessionId);
  return toServices(deps.db, [sessionId]);
}

/** POST /queues/sessions/{sessionId}/services: a service type, cut into slots at once. */
export async function addService(
  deps: SessionsDeps,
  caller: Caller,
  sessionId: string,
  input: SessionServiceInput,
): Promise<SessionService> {
  return deps.db.transaction(async (tx) => {
    const first = await repo.findSessionView(tx, sessionId);
    if (!first) throw notFoundError.session();
    const queue = await queueOf(tx, first.session.queueId);
    await requireSessionManager(tx, caller, queue, first.session);
    const session = await lockedSession(tx, sessionId);
    if (session.status === 'closed' || session.status === 'cancelled') {
      throw new AppError(
        'session_not_editable',
        `Services cannot be added to a ${session.status} session.`,
        { sessions: [{ sessionId: session.id, status: session.status }] },
      );
    }
    await checkServiceTypes(tx, queue.id, [input], () => 'body.serviceTypeId');
    const existing = await repo.servicesOf(tx, [sessionId]);
    if (existing.some((e) => e.service.serviceTypeId === input.serviceTypeId)) {
      throw new AppError('service_exists', 'This service type is already offered in the session.', {
        serviceId: existing.find((e) => e.service.serviceTypeId === input.serviceTypeId)?.service
          .id,
      });
    }
    const created = await repo.insertService(tx, { sessionId, ...input });
    await generateSlots(tx, created, session);
    const [service] = (await toServices(tx, [sessionId])).filter((s) => s.id === created.id);
    if (!service) throw serviceNotFound();
    return service;
  });
}

/** A slot is offered while open, not started yet and with room left (capacity 0 never). */
function toSlot(
  row: Awaited<ReturnType<typeof repo.slotsOf>>[number],
  timezone: string,
  now: Date,
): Slot {
  return {
    serviceId: row.sessionServiceId,
    slotNo: row.slotNo,
    startTime: localTimeOf(row.startsAt, timezone),
    endTime: localTimeOf(row.endsAt, timezone),
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    capacity: row.capacity,
    bookedCount: row.bookedCount,
    status: row.status,
    bookable: row.status === 'open' && row.startsAt > now && row.bookedCount < row.capacity,
  };
}

/** GET /queues/sessions/services/{serviceId}/slots: blocked ones included. */
export async function listSlots(
  deps: SessionsDeps,
  caller: Caller,
  serviceId: string,
): Promise<Slot[]> {
  const service = await repo.findService(deps.db, serviceId);
  if (!service) throw serviceNotFound();
  const { view } = await readableSession(deps, caller, service.service.sessionId);
  const rows = await repo.slotsOf(deps.db, serviceId);
  const now = deps.clock();
  return rows.map((row) => toSlot(row, view.session.timezone, now));
}

/** POST /queues/sessions/services/slots-status: block or reopen slots. */
export async function setSlotsStatus(
  deps: SessionsDeps,
  caller: Caller,
  input: SlotsStatusInput,
): Promise<Slot[]> {
  return deps.db.transaction(async (tx) => {
    const service = await repo.findService(tx, input.serviceId);
    if (!service) throw serviceNotFound();
    const session = await lockedSession(tx, service.service.sessionId);
    const queue = await queueOf(tx, session.queueId);
    await requireSessionOperator(tx, caller, queue, session, 'session.block_slots');
    const existing = new Set((await repo.slotsOf(tx, input.serviceId)).map((s) => s.slotNo));
    const missing = input.slotNos.filter((n) => !existing.has(n));
    if (missing.length > 0) {
      throw new AppError(
        'not_found',
        `Slot ${missing.join(', ')} does not exist in this service.`,
        {
          missing,
        },
      );
    }
    await repo.setSlotsStatus(tx, input.serviceId, input.slotNos, input.status);
    const rows = await repo.slotsOf(tx, input.serviceId);
    const now = deps.clock();
    return rows.map((row) => toSlot(row, session.timezone, now));
  });
}
