import { Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconCalendarOff, IconLock } from '@tabler/icons-react';
import type { IntakeAnswerInput } from '@upnext/contract/intake';
import { PAYMENT_HOLD_MINUTES } from '@upnext/contract/payments';
import type { Queue } from '@upnext/contract/queues';
import { spaRoutes } from '@upnext/contract/routes';
import type { Session } from '@upnext/contract/sessions';
import type { QueueToken } from '@upnext/contract/tokens';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyBlock, LoadError, LoadFailed, LoadingList } from '../../../components/StateViews.tsx';
import { Notice } from '../../../components/tones.tsx';
import { formatMoney } from '../../../entities/payment/format.ts';
import { addDays, formatDay, shortTime, todayLocal } from '../../../entities/session/format.ts';
import { SessionStatusBadge } from '../../../entities/session/SessionStatusBadge.tsx';
import { useUserData } from '../../../entities/user/api.ts';
import { useCurrentUser } from '../../../lib/auth-session.ts';
import { errorCode } from '../../../lib/error-text.ts';
import { newIdempotencyKey } from '../../../lib/idempotency.ts';
import { useBookSlot } from '../api/bookSlot.ts';
import { useCreateJoinRequest } from '../api/createJoinRequest.ts';
import { useQueueByCode } from '../api/getQueueByCode.ts';
import { useTakeToken } from '../api/takeToken.ts';
import { useUpcomingSessions } from '../api/upcomingSessions.ts';
import { liveStatuses, useLiveTokens } from '../hooks/useLiveTokens.ts';
import { CodeForm } from './CodeForm.tsx';
import type { Picked } from './JoinReview.tsx';
import { LiveTokenCard } from './LiveTokenCard.tsx';
import type { Price } from './PaymentPanel.tsx';
import { VisitorNameStep } from './VisitorNameStep.tsx';
import { visitErrorText } from './visitError.ts';

// Booking a time (its slot picker's select) and the review with the queue's questions load
// when a visitor needs them: a join link for a walk-in token, what most scans are, goes without.
const SlotPicker = lazy(() =>
  import('./SlotPicker.tsx').then((module) => ({ default: module.SlotPicker })),
);
const JoinReview = lazy(() =>
  import('./JoinReview.tsx').then((module) => ({ default: module.JoinReview })),
);

/** What the visitor asked for before signing in; done as soon as they are signed in. */
type Pending =
  | { kind: 'take'; sessionId: string; answers: IntakeAnswerInput }
  | { kind: 'book'; serviceId: string; slotNo: number; answers: IntakeAnswerInput }
  | { kind: 'ask'; queueId: string };

interface JoinFlowProps {
  /** The join code from `?queue=` (the page asks for one first: `CodeForm`). */
  code: string;
  onCodeChange: (code: string | null) => void;
  /** Open the app's sign-in dialog (the page owns it). */
  requestSignIn: () => void;
}

/**
 * What the page shows once the queue is known: a token of the visitor's, the sessions, or the
 * confirmation step of a slot picked (or of a walk-in token, when the queue asks questions).
 */
type View =
  | { kind: 'token'; token: QueueToken }
  | { kind: 'sessions' }
  | { kind: 'review'; picked: Picked }
  | null;

/** `/join`: find a queue by code, pick a session, take a token or book a time, follow it live. */
export function JoinFlow({ code, onCodeChange, requestSignIn }: JoinFlowProps) {
  const { t } = useTranslation('visit');
  const user = useCurrentUser();
  const queue = useQueueByCode(code);
  const { tokens } = useLiveTokens(Boolean(user));
  const take = useTakeToken();
  const book = useBookSlot();
  const ask = useCreateJoinRequest();
  const [pending, setPending] = useState<Pending | null>(null);
  const [view, setView] = useState<View>(null);
  // A first-time visitor is asked their name before the token or booking is made.
  const userData = useUserData();
  const [naming, setNaming] = useState<Exclude<Pending, { kind: 'ask' }> | null>(null);
  // Single-fire: a second click before the first answer (a double-click) sends nothing.
  const inFlight = useRef(false);

  function run(action: Pending, visitorName?: string) {
    if (!user) {
      setPending(action);
      requestSignIn();
      return;
    }
    setPending(null);
    if (action.kind === 'ask') {
      ask.mutate({ queueId: action.queueId });
      return;
    }
    if (visitorName === undefined && userData.data && !userData.data.displayName.trim()) {
      setNaming(action);
      return;
    }
    if (inFlight.current) return;
    inFlight.current = true;
    const named = visitorName ? { visitorName } : {};
    const answered = action.answers.length > 0 ? { answers: action.answers } : {};
    const done = {
      onSuccess: (token: QueueToken) => {
        setView({ kind: 'token', token });
        // The profile now has the name given: read it again, so it is not asked twice.
        if (visitorName) void userData.refetch();
      },
      onSettled: () => {
        inFlight.current = false;
      },
    };
    if (action.kind === 'take') {
      take.mutate(
        {
          sessionId: action.sessionId,
          idempotencyKey: newIdempotencyKey(),
          ...answered,
          ...named,
        },
        done,
      );
    } else {
      book.mutate(
        { serviceId: action.serviceId, slotNo: action.slotNo, ...answered, ...named },
        done,
      );
    }
  }

  // Signed in with an action waiting: carry it out (the visitor does not have to click again).
  // biome-ignore lint/correctness/useExhaustiveDependencies: run only when the user arrives
  useEffect(() => {
    if (user && pending) run(pending);
  }, [user]);

  // The visitor's live tokens in this queue, by session: after a reload or the back button the
  // page shows the token again instead of offering to take another.
  const held = new Map<string, QueueToken>();
  for (const token of tokens.data ?? []) {
    if (token.queueId === queue.data?.id && liveStatuses.includes(token.status)) {
      if (!held.has(token.sessionId)) held.set(token.sessionId, token);
    }
  }
  const shown =
    view?.kind === 'token' ? view.token : view === null ? held.values().next().value : undefined;
  if (shown) {
    const token = tokens.data?.find((candidate) => candidate.id === shown.id) ?? shown;
    return (
      <Confirmation
        token={token}
        price={priceOf(queue.data)}
        onBack={() => {
          setView({ kind: 'sessions' });
          take.reset();
          book.reset();
        }}
      />
    );
  }

  if (naming) {
    return (
      <VisitorNameStep
        onSubmit={(name) => {
          setNaming(null);
          run(naming, name);
        }}
        onCancel={() => setNaming(null)}
      />
    );
  }

  if (queue.isPending || (user && tokens.isPending)) return <LoadingList rows={3} />;
  if (queue.isError) {
    const code403 = errorCode(queue.error) === 'join_request_required';
    if (code403) {
      return (
        <PrivateQueue
          signedIn={Boolean(user)}
          sent={ask.isSuccess}
          busy={ask.isPending}
          error={ask.error}
          onAsk={() => {
            const queueId = queueIdFromError(queue.error);
            if (queueId) run({ kind: 'ask', queueId });
          }}
          onChangeCode={() => onCodeChange(null)}
        />
      );
    }
    // An unknown code is a refusal no retry can fix: say so, and offer to type another.
    const unknown = errorCode(queue.error) === 'not_found';
    return (
      <Stack gap="md">
        <LoadFailed
          message={unknown ? t('errors.not_found') : visitErrorText(queue.error)}
          {...(unknown ? {} : { onRetry: () => void queue.refetch() })}
        />
        <CodeForm onSubmit={onCodeChange} initial={code} />
      </Stack>
    );
  }

  const actionError = take.error ?? book.error;
  const review = view?.kind === 'review' ? view.picked : null;
  return (
    <Stack gap="lg">
      <QueueHeader queue={queue.data} onChangeCode={() => onCodeChange(null)} />
      {pending && !user ? (
        <Notice tone="blue" role="status">
          {t('join.signInFirst')}
        </Notice>
      ) : null}
      {actionError ? (
        <Notice tone="red" role="alert" data-testid="join-error">
          <Stack gap="xs" align="flex-start">
            {visitErrorText(actionError)}
            {errorCode(actionError) === 'token_limit_reached' ? (
              <Anchor component={Link} to={spaRoutes.adminMySessions} c="red.9" fw={600}>
                {t('token.mySessions')}
              </Anchor>
            ) : null}
          </Stack>
        </Notice>
      ) : null}
      {review ? (
        <Suspense fallback={<LoadingList rows={2} />}>
          <JoinReview
            queue={queue.data}
            picked={review}
            busy={take.isPending || book.isPending}
            onConfirm={(answers) =>
              run(
                review.booking
                  ? {
                      kind: 'book',
                      serviceId: review.booking.service.id,
                      slotNo: review.booking.slot.slotNo,
                      answers,
                    }
                  : { kind: 'take', sessionId: review.session.id, answers },
              )
            }
            onBack={() => {
              take.reset();
              book.reset();
              setView({ kind: 'sessions' });
            }}
          />
        </Suspense>
      ) : (
        <SessionList
          queue={queue.data}
          held={held}
          busy={take.isPending || book.isPending}
          takingId={take.isPending ? take.variables?.sessionId : undefined}
          onTake={(session) => {
            // The queue's questions are asked on the confirmation step; without any, one tap.
            if (queue.data.intakeQuestions.length === 0) {
              run({ kind: 'take', sessionId: session.id, answers: [] });
              return;
            }
            take.reset();
            setView({ kind: 'review', picked: { session } });
          }}
          onPick={(picked) => {
            take.reset();
            setView({ kind: 'review', picked });
          }}
          onShow={(token) => setView({ kind: 'token', token })}
        />
      )}
    </Stack>
  );
}

/** A paid queue's price for the pay panel (null when the queue is free or not loaded). */
function priceOf(queue: Queue | undefined): Price | null {
  return queue && queue.priceMinor !== null && queue.currency
    ? { amountMinor: queue.priceMinor, currency: queue.currency }
    : null;
}

/** The 403's details may name the queue (for "Ask to join"). */
function queueIdFromError(error: unknown): string | null {
  const details = (error as { details?: unknown }).details;
  if (details && typeof details === 'object' && 'queueId' in details) {
    const id = (details as { queueId: unknown }).queueId;
    return typeof id === 'string' ? id : null;
  }
  return null;
}

function QueueHeader({ queue, onChangeCode }: { queue: Queue; onChangeCode: () => void }) {
  const { t, i18n } = useTranslation('visit');
  return (
    <Stack gap={4}>
      <Text c="dimmed" fw={600}>
        {queue.company.name}
      </Text>
      <Title order={2}>{queue.name}</Title>
      {queue.description ? <Text>{queue.description}</Text> : null}
      {queue.priceMinor !== null && queue.currency ? (
        <Stack gap={0}>
          <Text fw={700} data-testid="queue-price">
            {t('join.price', {
              price: formatMoney(queue.priceMinor, queue.currency, i18n.language),
            })}
          </Text>
          <Text size="sm" c="dimmed">
            {t('join.paidHint', { minutes: PAYMENT_HOLD_MINUTES })}
          </Text>
        </Stack>
      ) : null}
      <Anchor component="button" type="button" size="sm" onClick={onChangeCode} w="fit-content">
        {t('join.changeCode')}
      </Anchor>
    </Stack>
  );
}

interface SessionListProps {
  queue: Queue;
  /** The visitor's live token per session: shown instead of offering another. */
  held: ReadonlyMap<string, QueueToken>;
  busy: boolean;
  /** The session a token is being taken in, to show the spinner on its own button. */
  takingId: string | undefined;
  onTake: (session: Session) => void;
  /** A slot was chosen: the confirmation step comes next. */
  onPick: (picked: Picked) => void;
  onShow: (token: QueueToken) => void;
}

function SessionList({ queue, held, busy, takingId, onTake, onPick, onShow }: SessionListProps) {
  const { t, i18n } = useTranslation('visit');
  const from = todayLocal();
  const sessions = useUpcomingSessions(queue.id, from, addDays(from, 6));
  const [slotsFor, setSlotsFor] = useState<string | null>(null);
  const walkIns = queue.mode !== 'slots';
  const slots = queue.mode !== 'walk_in';

  return (
    <Stack gap="sm" component="section" aria-labelledby="join-sessions-title">
      <Title order={3} id="join-sessions-title">
        {t('join.sessionsTitle')}
      </Title>
      {sessions.isPending ? <LoadingList rows={3} /> : null}
      {sessions.isError ? (
        <LoadError error={sessions.error} onRetry={() => void sessions.refetch()} />
      ) : null}
      {sessions.data?.length === 0 ? (
        <EmptyBlock
          order={4}
          icon={<IconCalendarOff aria-hidden />}
          title={t('join.sessionsEmptyTitle')}
          body={t('join.sessionsEmptyBody')}
        />
      ) : null}
      {sessions.data && sessions.data.length > 0 ? (
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {sessions.data.map((session) => {
            const label = t('join.sessionLabel', {
              day: formatDay(session.date, i18n.language),
              time: t('join.sessionTime', {
                start: shortTime(session.startTime),
                end: shortTime(session.endTime),
              }),
            });
            const open = slotsFor === session.id;
            const mine = held.get(session.id);
            return (
              <li key={session.id}>
                <Paper withBorder radius="md" p="md">
                  <Stack gap="sm">
                    <Group justify="space-between" wrap="wrap" gap="xs">
                      <Stack gap={0}>
                        <Text fw={700}>{label}</Text>
                        {session.subQueueName ? (
                          <Text size="sm" c="dimmed">
                            {session.subQueueName}
                          </Text>
                        ) : null}
                      </Stack>
                      <SessionStatusBadge status={session.status} />
                    </Group>
                    <Text size="sm">{t('join.waiting', { count: session.counts.waiting })}</Text>
                    {session.visitorNotes ? (
                      <Text size="sm" fs="italic">
                        {session.visitorNotes}
                      </Text>
                    ) : null}
                    <Group gap="sm">
                      {mine ? (
                        <Button
                          onClick={() => onShow(mine)}
                          aria-label={t('join.showTokenFor', {
                            number: mine.displayNumber,
                            session: label,
                          })}
                        >
                          {t('join.showToken', { number: mine.displayNumber })}
                        </Button>
                      ) : null}
                      {walkIns && !mine ? (
                        <Button
                          onClick={() => onTake(session)}
                          loading={busy && takingId === session.id}
                          disabled={busy && takingId !== session.id}
                          aria-label={t('join.takeTokenFor', { session: label })}
                        >
                          {t('join.takeToken')}
                        </Button>
                      ) : null}
                      {slots && !mine ? (
                        <Button
                          variant="light"
                          aria-expanded={slotsFor === session.id}
                          aria-label={t(open ? 'join.hideSlotsFor' : 'join.chooseSlotFor', {
                            session: label,
                          })}
                          onClick={() => setSlotsFor(slotsFor === session.id ? null : session.id)}
                        >
                          {slotsFor === session.id ? t('join.hideSlots') : t('join.chooseSlot')}
                        </Button>
                      ) : null}
                    </Group>
                    {open && !mine ? (
                      <Suspense fallback={<LoadingList rows={2} />}>
                        <SlotPicker
                          sessionId={session.id}
                          busy={busy}
                          onPick={(service, slot) =>
                            onPick({ session, booking: { service, slot } })
                          }
                        />
                      </Suspense>
                    ) : null}
                  </Stack>
                </Paper>
              </li>
            );
          })}
        </Stack>
      ) : null}
    </Stack>
  );
}

interface PrivateQueueProps {
  signedIn: boolean;
  sent: boolean;
  busy: boolean;
  error: unknown;
  onAsk: () => void;
  onChangeCode: () => void;
}

function PrivateQueue({ signedIn, sent, busy, error, onAsk, onChangeCode }: PrivateQueueProps) {
  const { t } = useTranslation('visit');
  return (
    <Stack gap="md">
      <EmptyBlock
        icon={<IconLock aria-hidden />}
        title={t('join.privateTitle')}
        body={t('join.privateBody')}
        action={
          sent ? undefined : (
            <Button onClick={onAsk} loading={busy}>
              {signedIn ? t('join.askToJoin') : t('join.signInToAsk')}
            </Button>
          )
        }
      />
      {sent ? (
        <Notice tone="teal" role="status">
          {t('join.requestSent')}
        </Notice>
      ) : null}
      {error ? (
        <Notice tone="red" role="alert">
          {visitErrorText(error)}
        </Notice>
      ) : null}
      <Anchor component="button" type="button" onClick={onChangeCode} w="fit-content">
        {t('join.changeCode')}
      </Anchor>
    </Stack>
  );
}

/** The visitor's token in this queue, kept live from their own tokens. */
function Confirmation({
  token,
  price,
  onBack,
}: {
  token: QueueToken;
  price: Price | null;
  onBack: () => void;
}) {
  const { t } = useTranslation('visit');
  return (
    <Stack gap="md">
      <LiveTokenCard token={token} price={price} />
      <Text size="sm" c="dimmed">
        {t('token.liveHint')}
      </Text>
      <Group gap="sm">
        <Button component={Link} to={`${spaRoutes.adminMySessions}?token=${token.id}`}>
          {t('token.mySessions')}
        </Button>
        <Button variant="default" onClick={onBack}>
          {t('token.takeAnother')}
        </Button>
      </Group>
      <Text size="sm">
        {t('token.statusLinkHint')}{' '}
        <Anchor
          component={Link}
          to={new URL(token.statusUrl).pathname}
          underline="always"
          data-testid="status-link"
        >
          {t('token.statusLink')}
        </Anchor>
      </Text>
    </Stack>
  );
}
