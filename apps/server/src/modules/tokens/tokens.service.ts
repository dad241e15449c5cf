import {
  checkIntakeAnswers,
  type IntakeAnswer,
  type IntakeAnswerInput,
  type IntakeQuestion,
} from '@upnext/contract/intake';
import { defaultLanguage, type Language } from '@upnext/contract/languages';
import {
  type BookSlotInput,
  cancellableTokenStatuses,
  type QueueToken,
  type TakeTokenInput,
  type TokenAction,
  type TokensQueryInput,
} from '@upnext/contract/tokens';
import type { Db, Tx } from '../../db/client.ts';
import { commitWithLast } from '../../db/pooled-client.ts';
import { atDeskStatuses } from '../../db/schema/tokens.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import type { EventPublisher } from '../../lib/events.ts';
import { keyedLimit } from '../../lib/keyed-limit.ts';
import { requirePhone } from '../../lib/phone.ts';
import {
  type Action,
  assertMay,
  isMember,
  notFoundError,
  type Standing,
  signedInOf,
} from '../access/access.ts';
import { type Caller, requireUser, type SignedInCaller } from '../access/caller.ts';
import { assertWithinPlan, type LockedTokenMonth } from '../billing/billing.service.ts';
import { type RefundJob, runRefunds } from '../payments/payments.refunds.ts';
import type { PaymentsRuntime } from '../payments/providers.ts';
import { ensureProfile, nameProfileOnce } from '../users/users.repository.ts';
import type { BoardCache, CachedBoard } from './tokens.board.ts';
import {
  publishCalled,
  publishCancelled,
  publishLive,
  publishNowServing,
} from './tokens.events.ts';
import { appendedLine, type LiveLine, liveLine, sessionFigures } from './tokens.line.ts';
import {
  calendarFor,
  notifyHolder,
  notifyIssued,
  reachesHolder,
  statusUrlOf,
} from './tokens.notifications.ts';
import {
  holdForPayment,
  needsPayment,
  settleCancelledToken,
  tokenPayments,
  visitorRefundShare,
} from './tokens.payments.ts';
import {
  authorizeFigures,
  authorizeLockedSession,
  authorizeSession,
  authorizeToken,
  readsAllTokens,
} from './tokens.policy.ts';
import * as repo from './tokens.repository.ts';
import { hasFreePlace, type SessionContext, type TokenRow } from './tokens.repository.ts';

export type TokensDeps = {
  db: Db;
  clock: Clock;
  publisher: EventPublisher;
  publicUrl: string;
  /** Whether an SMS path exists: visitors with a phone then get texts too. */
  smsEnabled: boolean;
  /** The payment provider paid visits check out with (null: none may run here). */
  payments: PaymentsRuntime;
};

export function displayNumber(prefix: string, number: number): string {
  const padded = String(number).padStart(3, '0');
  return prefix ? `${prefix}-${padded}` : padded;
}

/** Sessions take tokens until they close or their window ends. */
export function requireIssuing(session: SessionContext, now: Date) {
  if (session.status === 'closed' || session.status === 'cancelled' || session.endsAt <= now) {
    throw new AppError('session_closed', 'This session is closed and takes no more tokens.');
  }
}

/** The caller's profile name ('' until they give one), read before the session is locked. */
/**
 * The caller's profile name, read only where it may name the token: a request that gives a
 * name (a staff walk-in's, or a visitor naming themselves) does not need it.
 */
async function profileNameFor(
  db: Db,
  caller: SignedInCaller,
  input: TakeTokenInput | BookSlotInput,
): Promise<string> {
  if (input.visitorName) return '';
  return (await ensureProfile(db, caller.userId)).displayName;
}

/**
 * Who the token is for: the caller, or (staff only) a walk-in visitor without an account. A
 * phone given is normalised to E.164 in the company's country (`invalid_phone` otherwise).
 */
function visitorOf(
  caller: SignedInCaller,
  input: TakeTokenInput | BookSlotInput,
  staff: boolean,
  country: string,
  profileName: string,
) {
  const phone = input.visitorPhone
    ? requirePhone(input.visitorPhone, country, 'body.visitorPhone')
    : null;
  if (staff && input.visitorName) {
    return {
      userId: null,
      visitorName: input.visitorName,
      visitorPhone: phone,
      visitorEmail: input.visitorEmail ?? null,
      issuedBy: caller.userId,
    };
  }
  return {
    userId: caller.userId,
    // The name they give, else their profile's: staff call a person, not an address.
    visitorName: input.visitorName ?? (profileName || caller.email?.split('@')[0] || ''),
    visitorPhone: phone ?? caller.phone,
    visitorEmail: caller.email,
    issuedBy: null,
  };
}

/**
 * The token an earlier attempt with the same `Idempotency-Key` took in this session, when it
 * was this caller's: a repeated request (a double click, a retry after a lost answer) gets
 * it back instead of a second token. Asked under the session lock, so two identical
 * requests at once take one token.
 */
async function earlierAttempt(
  tx: Tx,
  caller: SignedInCaller,
  sessionId: string,
  key: string | undefined,
) {
  if (!key) return undefined;
  const token = await repo.findByIdempotencyKey(tx, sessionId, key);
  if (!token) return undefined;
  if (token.userId !== caller.userId && token.issuedBy !== caller.userId) {
    throw new AppError(
      'idempotency_key_reused',
      'This Idempotency-Key belongs to another request. Send a new key for each attempt.',
    );
  }
  return token;
}

/** A slot a booking may take: open, not started, not full (its row locked by the caller). */
export function requireBookable(slot: Awaited<ReturnType<typeof repo.lockSlot>>, now: Date) {
  if (!slot) throw new AppError('slot_not_found', 'This slot does not exist.');
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
  return slot;
}

const intakeMessages: Record<
  ReturnType<typeof checkIntakeAnswers>['problems'][number]['reason'],
  string
> = {
  required: 'Please answer',
  not_an_option: 'Choose one of the options of',
  unknown_question: 'There is no such question as',
  repeated: 'Answer only once',
};

/** The answers to the queue's questions, or 400 naming each question refused. */
function intakeAnswersFor(
  questions: readonly IntakeQuestion[],
  given: IntakeAnswerInput | undefined,
): IntakeAnswer[] {
  const { answers, problems } = checkIntakeAnswers(questions, given ?? []);
  if (problems.length === 0) return answers;
  const issues = problems.map((problem) => {
    const label = questions.find((question) => question.id === problem.questionId)?.label;
    return {
      field: 'body.answers',
      questionId: problem.questionId,
      reason: problem.reason,
      message: `${intakeMessages[problem.reason]} "${label ?? problem.questionId}".`,
    };
  });
  throw new AppError('validation_failed', issues.map((issue) => issue.message).join(' '), {
    issues,
  });
}

/**
 * Until when a visitor may cancel or move this booking themselves: the queue's cut-off before
 * its slot; null for walk-ins and when the queue sets none.
 */
function changeDeadline(
  session: Pick<SessionContext, 'changeCutoffMinutes'>,
  token: Pick<TokenRow, 'kind' | 'slotStartsAt'>,
): Date | null {
  if (token.kind !== 'booking' || !token.slotStartsAt || session.changeCutoffMinutes === 0) {
    return null;
  }
  return new Date(token.slotStartsAt.getTime() - session.changeCutoffMinutes * 60_000);
}

/**
 * The queue's cancellation window, for visitors (staff are not bound by it): past the cut-off
 * a booking stays unless staff change it. An unpaid hold may always be let go.
 */
export function assertChangeAllowed(
  access: Standing,
  session: SessionContext,
  token: TokenRow,
  now: Date,
) {
  if (isMember(access) || token.status === 'pending_payment') return;
  const deadline = changeDeadline(session, token);
  if (!deadline || now < deadline) return;
  const notice =
    session.changeCutoffMinutes % 60 === 0
      ? `${session.changeCutoffMinutes / 60} hour${session.changeCutoffMinutes === 60 ? '' : 's'}`
      : `${session.changeCutoffMinutes} minutes`;
  throw new AppError(
    'change_window_closed',
    `Bookings here can be cancelled or moved up to ${notice} before they start. Please contact ${session.companyName}.`,
    { changeUntil: deadline.toISOString(), cutoffMinutes: session.changeCutoffMinutes },
  );
}

type Issued = {
  token: TokenRow;
  session: SessionContext;
  staff: boolean;
  repeated: boolean;
  /** The new token's place when it joined at the end of the line (nobody else's moved). */
  appendedAt?: number;
};

/** What an issue needs besides the locked session and who the caller is to it. */
type IssueRequest = {
  input: TakeTokenInput | BookSlotInput;
  booking?: { serviceId: string; slotNo: number; startsAt: Date };
  idempotencyKey: string | undefined;
  /** The caller's profile name ('' when the request names the visitor: profileNameFor). */
  profileName: string;
  /** The holder's messages are written in it. */
  language: Language;
  /** The plan and its month's tokens, when the session's lock statement locked them too. */
  plan: LockedTokenMonth | undefined;
};

/** A new token in a session locked by the caller (lock order: session, then slot). */
async function issue(
  tx: Tx,
  deps: TokensDeps,
  caller: SignedInCaller,
  session: SessionContext,
  access: Standing,
  { input, booking, idempotencyKey, profileName, language, plan }: IssueRequest,
): Promise<Issued> {
  const now = deps.clock();
  const staff = isMember(access);
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
  if (input.priority !== undefined || input.notes !== undefined || (staff && input.visitorName)) {
    assertMay(access, 'token.issue_walk_in');
  }
  // Walk-ins and bookings, visitors and staff at the desk: everyone answers the same questions.
  const answers = intakeAnswersFor(session.intakeQuestions, input.answers);
  const visitor = visitorOf(caller, input, staff, session.country, profileName);
  // The name is asked once: the first one a visitor gives becomes their profile's.
  if (visitor.userId && input.visitorName) {
    await nameProfileOnce(tx, visitor.userId, input.visitorName, now);
  }
  if (visitor.userId) {
    const held = await repo.liveTokenIdsOf(tx, session.sessionId, visitor.userId);
    if (held.length >= session.tokensPerVisitor) {
      throw new AppError(
        'token_limit_reached',
        `You already hold ${held.length} token${held.length === 1 ? '' : 's'} in this session, the most this queue allows.`,
        { limit: session.tokensPerVisitor, tokenIds: held },
      );
    }
  }
  if (!hasFreePlace(session)) {
    throw new AppError('session_full', 'This session is full. Please choose another session.');
  }
  // A paid visit waits as `pending_payment`, holding its place until paid (tokens.payments.ts).
  const paid = needsPayment(session, visitor.issuedBy !== null);
  if (paid && !deps.payments.provider) {
    throw new AppError(
      'payments_unavailable',
      'Online payments are not available here, so this paid queue cannot take visitors online.',
    );
  }
  // The plan's tokens a month (lock order: session, then company).
  await assertWithinPlan(tx, session.companyId, 'tokens', 1, now, plan);
  // A walk-in of the lowest priority joins at the end of the line: its place is the line's
  // length, counted from the session's counters instead of its rows.
  const status = paid ? 'pending_payment' : booking ? 'booked' : 'waiting';
  const appendedAt =
    status === 'waiting' && !input.priority
      ? (await repo.lineLength(tx, session, now)) + 1
      : undefined;
  // A booking stays `booked` until its slot is near (one made that late is admitted at once).
  const insert = () =>
    repo.insertNextToken(tx, session, (number) => ({
      sessionId: session.sessionId,
      number,
      displayNumber: displayNumber(session.tokenPrefix, number),
      kind: booking ? 'booking' : 'walk_in',
      sessionServiceId: booking?.serviceId ?? null,
      slotNo: booking?.slotNo ?? null,
      slotStartsAt: booking?.startsAt ?? null,
      ...visitor,
      status,
      priority: input.priority ?? 0,
      notes: input.notes ?? '',
      intakeAnswers: answers,
      idempotencyKey: idempotencyKey ?? null,
      language,
      joinedAt: now,
      updatedAt: now,
    }));
  // With no hold to open, no booking to admit and nobody to message (notifyIssued has nothing
  // to write, its place known), the insert is the last statement: it goes with the commit.
  const last = !paid && !booking && appendedAt !== undefined && !reachesHolder(deps, visitor);
  const inserted = last ? await commitWithLast(tx, insert) : await insert();
  if (paid) {
    await holdForPayment(tx, deps, session, inserted, now);
    return { token: inserted, session, staff, repeated: false };
  }
  const admitted = booking ? await repo.admitDueBookings(tx, session.sessionId, now) : [];
  const token = admitted.find((row) => row.id === inserted.id) ?? inserted;
  await notifyIssued(tx, deps, now, session, token, appendedAt);
  return { token, session, staff, repeated: false, appendedAt };
}

/** Issues of one session that run at once in this instance; `keyedLimit` says why. */
export const ISSUES_AT_ONCE_PER_SESSION = 2;
const issuesOfSession = keyedLimit(ISSUES_AT_ONCE_PER_SESSION);

/** What an issue finds under its session's lock: the session, the caller's standing, the plan. */
type LockedForIssue = Pick<IssueRequest, 'plan'> & { session: SessionContext; access: Standing };

/**
 * An issue in `sessionId`, within the session's limit and in a transaction that locked it with
 * who the caller is to it and (most of the time) the plan and its month's tokens, all in one
 * statement. An earlier identical attempt answers with its token instead of `issueLocked`.
 */
async function issueInSession(
  deps: TokensDeps,
  caller: SignedInCaller,
  sessionId: string,
  idempotencyKey: string | undefined,
  issueLocked: (tx: Tx, locked: LockedForIssue) => Promise<Issued>,
): Promise<Issued> {
  return issuesOfSession(sessionId, () =>
    deps.db.transaction(async (tx) => {
      const withPlan = await repo.lockSessionForIssue(tx, sessionId, caller.userId, deps.clock());
      const locked = withPlan ?? (await repo.lockSessionWithTies(tx, sessionId, caller.userId));
      if (!locked) throw notFoundError.session();
      const { session } = locked;
      const access = authorizeLockedSession(caller, 'token.take', locked);
      const earlier = await earlierAttempt(tx, caller, sessionId, idempotencyKey);
      if (earlier) return { token: earlier, session, staff: isMember(access), repeated: true };
      return issueLocked(tx, { session, access, plan: withPlan?.plan });
    }),
  );
}

/** Once committed: a new token is announced; a repeated attempt only answers its token. */
async function answerIssued(deps: TokensDeps, caller: SignedInCaller, issued: Issued) {
  const view = { staff: issued.staff, viewerId: caller.userId };
  if (issued.repeated) return (await present(deps, [issued.token], view))[0] as QueueToken;
  if (issued.appendedAt === undefined) {
    return announce(deps, issued.session, issued.token, view, 'recent');
  }
  const line = await appendedLine(
    deps.db,
    issued.session,
    issued.token,
    issued.appendedAt,
    deps.clock(),
  );
  await publishLive(deps, line, false);
  // Just issued and not held for payment: it has no payment to show.
  return (await present(deps, [issued.token], view, [line], new Map()))[0] as QueueToken;
}

export async function takeToken(
  deps: TokensDeps,
  caller: Caller,
  input: TakeTokenInput,
  idempotencyKey?: string,
  /** The language of the page it is taken from: the holder's messages are in it. */
  language: Language = defaultLanguage,
) {
  const signedIn = requireUser(caller);
  const profileName = await profileNameFor(deps.db, signedIn, input);
  const issued = await issueInSession(
    deps,
    signedIn,
    input.sessionId,
    idempotencyKey,
    (tx, { session, access, plan }) =>
      issue(tx, deps, signedIn, session, access, {
        input,
        idempotencyKey,
        profileName,
        language,
        plan,
      }),
  );
  return answerIssued(deps, signedIn, issued);
}

export async function bookSlot(
  deps: TokensDeps,
  caller: Caller,
  input: BookSlotInput,
  idempotencyKey?: string,
  language: Language = defaultLanguage,
) {
  const signedIn = requireUser(caller);
  const sessionId = await repo.findServiceSession(deps.db, input.serviceId);
  if (!sessionId) throw new AppError('slot_not_found', 'This slot does not exist.');
  const profileName = await profileNameFor(deps.db, signedIn, input);
  const issued = await issueInSession(
    deps,
    signedIn,
    sessionId,
    idempotencyKey,
    async (tx, { session, access, plan }) => {
      // Lock order everywhere: session, then slot.
      const slot = requireBookable(
        await repo.lockSlot(tx, input.serviceId, input.slotNo),
        deps.clock(),
      );
      const booking = { serviceId: input.serviceId, slotNo: input.slotNo, startsAt: slot.startsAt };
      const result = await issue(tx, deps, signedIn, session, access, {
        input,
        booking,
        idempotencyKey,
        profileName,
        language,
        plan,
      });
      await repo.changeBookedCount(tx, input.serviceId, input.slotNo, 1);
      return result;
    },
  );
  return answerIssued(deps, signedIn, issued);
}

type View = { staff: boolean; viewerId?: string | undefined };

/**
 * After a committed change: the session's line computed once, published on the session topic
 * and to the holders, and used for the answer.
 */
export async function announce(
  deps: TokensDeps,
  session: SessionContext,
  token: TokenRow,
  view: View,
  serviceTimes: 'fresh' | 'recent' = 'fresh',
) {
  const line = await liveLine(deps.db, session, deps.clock(), serviceTimes);
  await publishLive(deps, line);
  return (await present(deps, [token], view, [line]))[0] as QueueToken;
}

/**
 * Tokens as the caller may see them, with their live position and estimated wait (from the
 * lines given, or computed once per session). A booking not in the line yet expects its
 * slot's start.
 */
export async function present(
  deps: TokensDeps,
  rows: readonly TokenRow[],
  view: View,
  known: readonly LiveLine[] = [],
  knownPayments?: Awaited<ReturnType<typeof tokenPayments>>,
): Promise<QueueToken[]> {
  const now = deps.clock();
  const lines = new Map(known.map((line) => [line.session.sessionId, line]));
  const payments =
    knownPayments ??
    (await tokenPayments(
      deps.db,
      rows.map((row) => row.id),
    ));
  for (const sessionId of new Set(rows.map((row) => row.sessionId))) {
    if (lines.has(sessionId)) continue;
    const session = await repo.findSessionContext(deps.db, sessionId);
    if (session) lines.set(sessionId, await liveLine(deps.db, session, now));
  }
  return rows.flatMap((row) => {
    const line = lines.get(row.sessionId);
    if (!line) return [];
    const place = line.byId.get(row.id);
    const untilSlot =
      !place && row.status === 'booked' && row.slotStartsAt
        ? Math.max(0, row.slotStartsAt.getTime() - now.getTime()) / 1000
        : null;
    const waitSeconds = place?.estimatedWaitSeconds ?? untilSlot;
    const mayReadContact =
      view.staff || (view.viewerId !== undefined && row.userId === view.viewerId);
    return [
      {
        id: row.id,
        sessionId: row.sessionId,
        queueId: line.session.queueId,
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
        calledBy: view.staff ? row.calledBy : null,
        calledByMe: view.viewerId !== undefined && row.calledBy === view.viewerId,
        completedAt: row.completedAt?.toISOString() ?? null,
        cancelledAt: row.cancelledAt?.toISOString() ?? null,
        cancelReason: row.cancelReason,
        serviceSeconds: row.serviceSeconds,
        position: place?.position ?? null,
        estimatedWaitMinutes: waitSeconds === null ? null : Math.ceil(waitSeconds / 60),
        sessionStatus: line.session.status,
        sessionNotes: line.session.visitorNotes,
        payment: payments.get(row.id) ?? null,
        statusUrl: statusUrlOf(deps.publicUrl, row),
        companyName: line.session.companyName,
        queueName: line.session.queueName,
        counter: line.session.subQueueName,
        answers: mayReadContact ? row.intakeAnswers : [],
        changeUntil: changeDeadline(line.session, row)?.toISOString() ?? null,
      },
    ];
  });
}

export async function queryTokens(deps: TokensDeps, caller: Caller, input: TokensQueryInput) {
  const user = requireUser(caller);
  let staff = false;
  if (input.sessionId) {
    const session = await repo.findSessionContext(deps.db, input.sessionId);
    if (!session) throw notFoundError.session();
    staff = await readsAllTokens(deps.db, caller, session);
  }
  // Visitors only ever see their own tokens; staff see the whole session.
  const rows = await repo.listTokens(deps.db, {
    sessionId: input.sessionId,
    userId: staff && !input.mine ? undefined : user.userId,
    statuses: input.statuses,
    kind: input.kind,
  });
  return present(
    deps,
    rows.map((row) => row.token),
    { staff, viewerId: user.userId },
  );
}

export async function slotTokens(
  deps: TokensDeps,
  caller: Caller,
  sessionId: string,
  slotNo: number,
) {
  const session = await repo.findSessionContext(deps.db, sessionId);
  if (!session) throw notFoundError.session();
  await authorizeSession(deps.db, caller, 'session.read_tokens', session);
  const rows = await repo.listTokens(deps.db, { sessionId, slotNo, kind: 'booking' });
  return present(
    deps,
    rows.map((row) => row.token),
    { staff: true, viewerId: (caller as SignedInCaller).userId },
  );
}

export async function cancelToken(
  deps: TokensDeps,
  caller: Caller,
  input: { tokenId: string; reason?: string | undefined },
) {
  const { token, session, staff, refunds } = await deps.db.transaction(async (tx) => {
    const existing = await repo.findToken(tx, input.tokenId);
    if (!existing) throw notFoundError.token();
    const locked = await repo.lockSessionContext(tx, existing.sessionId);
    if (!locked) throw notFoundError.session();
    const current = await repo.lockToken(tx, input.tokenId);
    if (!current) throw notFoundError.token();
    const access = await authorizeToken(tx, caller, 'token.cancel', current, locked);
    const holder = access.self;
    const staff = isMember(access);
    if (!cancellableTokenStatuses.includes(current.status)) {
      throw new AppError(
        'invalid_token_transition',
        `A ${current.status.replace('_', ' ')} token cannot be cancelled.`,
        { from: current.status, to: 'cancelled' },
      );
    }
    const now = deps.clock();
    assertChangeAllowed(access, locked, current, now);
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
    // A held place is given back; a paid visit is refunded: in full when staff cancel, by the
    // queue's rule when its holder does.
    const refunds: RefundJob[] = await settleCancelledToken(
      tx,
      current,
      current.status === 'pending_payment',
      holder ? visitorRefundShare(locked, current, now) : 100,
      holder ? 'cancelled_by_visitor' : 'cancelled_by_staff',
      now,
      { freePlace: true },
    );
    return { token: cancelled, session: locked, staff, refunds };
  });
  await runRefunds(deps, refunds);
  await publishCancelled(deps, [token]);
  return announce(deps, session, token, { staff, viewerId: (caller as SignedInCaller).userId });
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
    if (!session) throw notFoundError.session();
    const staff = signedInOf(await authorizeSession(tx, caller, 'session.call_next', session));
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
    await repo.admitDueBookings(tx, sessionId, now);
    const next = await repo.claimNextInLine(tx, sessionId, now);
    let called: TokenRow | null = null;
    if (next) {
      called = await repo.updateToken(tx, next.id, {
        status: 'called',
        calledAt: now,
        calledBy: staff.userId,
        updatedAt: now,
      });
      await notifyHolder(tx, deps, now, 'called', session, called);
    }
    // The line after the call, once: for the turn-approaching message, the events and the answer.
    const line = await liveLine(tx, session, now);
    if (called) await notifyTurnApproaching(tx, deps, line);
    return { session, completed, called, line, staffId: staff.userId };
  });
  const { session, called, line } = result;
  if (called) {
    await publishNowServing(deps, session, called, false);
    await publishCalled(deps, session, called);
  }
  await publishLive(deps, line);
  const shown = await present(
    deps,
    [result.completed, called].filter((token) => token !== null),
    { staff: true, viewerId: result.staffId },
    [line],
  );
  const byId = (token: TokenRow | null) => shown.find((row) => row.id === token?.id) ?? null;
  return { completed: byId(result.completed), called: byId(called) };
}

/** The holder who just reached the queue's threshold hears it once (dedupe per token). */
async function notifyTurnApproaching(tx: Tx, deps: TokensDeps, line: LiveLine) {
  const threshold = line.session.turnApproachingThreshold;
  if (threshold < 1) return;
  const entry = line.entries[threshold - 1];
  if (!entry) return;
  const token = await repo.findToken(tx, entry.id);
  if (!token) return;
  await notifyHolder(
    tx,
    deps,
    line.at,
    'turn_approaching',
    line.session,
    token,
    { position: threshold },
    { dedupe: `turn:${token.id}` },
  );
}

const actionRules: Record<
  TokenAction,
  { from: readonly string[]; to?: TokenRow['status']; access: Action }
> = {
  recall: { from: ['called'], to: 'called', access: 'token.recall' },
  'no-show': { from: ['called'], to: 'no_show', access: 'token.no_show' },
  requeue: { from: atDeskStatuses, to: 'waiting', access: 'token.requeue' },
  start: { from: ['called'], to: 'serving', access: 'token.start' },
  complete: { from: atDeskStatuses, to: 'served', access: 'token.complete' },
  // Keeps the status; the caller becomes the token's staff member.
  'take-over': { from: atDeskStatuses, access: 'token.take_over' },
};

/** Only the staff member who called a token serves and completes it, or whoever took it over. */
const ownedActions: readonly TokenAction[] = ['start', 'complete'];

/** Recall, no-show, requeue, start serving, complete and take over, by the rules of PRODUCT.md. */
export async function actOnToken(
  deps: TokensDeps,
  caller: Caller,
  tokenId: string,
  action: TokenAction,
) {
  const { token, line, staffId } = await deps.db.transaction(async (tx) => {
    const existing = await repo.findToken(tx, tokenId);
    if (!existing) throw notFoundError.token();
    const session = await repo.lockSessionContext(tx, existing.sessionId);
    if (!session) throw notFoundError.session();
    const staff = signedInOf(
      await authorizeSession(tx, caller, actionRules[action].access, session),
    );
    const current = await repo.lockToken(tx, tokenId);
    if (!current) throw notFoundError.token();
    const rule = actionRules[action];
    if (!rule.from.includes(current.status)) {
      throw new AppError(
        'invalid_token_transition',
        `Cannot ${action.replace('-', ' ')} a ${current.status.replace('_', ' ')} token.`,
        { from: current.status, action },
      );
    }
    if (ownedActions.includes(action) && current.calledBy !== staff.userId) {
      throw new AppError(
        'token_called_by_other',
        'Another staff member called this token. Take it over first to serve it here.',
        { calledBy: current.calledBy },
      );
    }
    const now = deps.clock();
    const changes: Partial<repo.NewToken> = { status: rule.to ?? current.status, updatedAt: now };
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
    if (action === 'take-over') changes.calledBy = staff.userId;
    const updated = await repo.updateToken(tx, tokenId, changes);
    if (action === 'recall') await notifyHolder(tx, deps, now, 'called', session, updated);
    return { token: updated, line: await liveLine(tx, session, now), staffId: staff.userId };
  });
  if (action === 'recall') {
    await publishNowServing(deps, line.session, token, true);
    await publishCalled(deps, line.session, token);
  }
  await publishLive(deps, line);
  return (
    await present(deps, [token], { staff: true, viewerId: staffId }, [line])
  )[0] as QueueToken;
}

/** Staff correct how long a service took (the figure the estimates learn from). */
export async function recordServiceTime(
  deps: TokensDeps,
  caller: Caller,
  input: { tokenId: string; seconds: number },
) {
  const token = await deps.db.transaction(async (tx) => {
    const existing = await repo.findToken(tx, input.tokenId);
    if (!existing) throw notFoundError.token();
    const session = await repo.findSessionContext(tx, existing.sessionId);
    if (!session) throw notFoundError.session();
    await authorizeSession(tx, caller, 'token.record_service_time', session);
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
  return (
    await present(deps, [token], { staff: true, viewerId: (caller as SignedInCaller).userId })
  )[0] as QueueToken;
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
  const companyId = input.sessionId
    ? (await repo.findSessionContext(deps.db, input.sessionId))?.companyId
    : await repo.companyOfQueue(deps.db, input.queueId as string);
  await authorizeFigures(deps.db, caller, companyId);
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
    throw notFoundError.token();
  }
  const session = await repo.findSessionContext(deps.db, token.sessionId);
  if (!session) throw notFoundError.session();
  const staff = isMember(await authorizeToken(deps.db, caller, 'token.read', token, session));
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

/** What a waiting-room screen shows, to whoever may see the session (its topic's audience). */
export async function sessionBoard(
  deps: TokensDeps,
  boards: BoardCache,
  caller: Caller,
  sessionId: string,
) {
  const cached = await cachedBoard(deps, boards, sessionId);
  if (!cached) throw notFoundError.session();
  await authorizeSession(deps.db, caller, 'session.read_board', cached.session);
  return cached.board;
}

/** A session's board from the instance's shared cache (the session board and branch boards). */
export const cachedBoard = (deps: TokensDeps, boards: BoardCache, sessionId: string) =>
  boards.read(sessionId, () => readBoard(deps, sessionId));

/** A session's board from its row and figures: two queries, however long its line. */
async function readBoard(deps: TokensDeps, sessionId: string): Promise<CachedBoard | undefined> {
  const session = await repo.findSessionContext(deps.db, sessionId);
  if (!session) return undefined;
  const figures = await sessionFigures(deps.db, session, deps.clock(), 'recent');
  const [current, ...earlier] = figures.lastCalled;
  // Every call of a session goes to its counter (sub-queue): that is where a visitor goes.
  const counter = session.subQueueName;
  return {
    session,
    board: {
      sessionId,
      companyName: session.companyName,
      country: session.country,
      queueId: session.queueId,
      queueName: session.queueName,
      joinCode: session.joinCode,
      counter,
      status: session.status,
      notes: session.visitorNotes,
      nowServing: current?.displayNumber ?? null,
      nowServingCounter: current ? counter : null,
      nowServingAt: current?.calledAt.toISOString() ?? null,
      recentlyCalled: earlier.map((row) => ({
        label: row.displayNumber,
        counter,
        calledAt: row.calledAt.toISOString(),
      })),
      waiting: figures.counts.waiting,
      averageServiceSeconds: Math.round(figures.secondsPerToken),
    },
  };
}
