import { Button, Grid, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconDeviceTablet, IconListDetails } from '@tabler/icons-react';
import { buildPath, spaRoutes } from '@upnext/contract/routes';
import type { QueueToken, TokenAction, TokenStatus } from '@upnext/contract/tokens';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { LoadFailed } from '../../../components/StateViews.tsx';
import { Notice } from '../../../components/tones.tsx';
import { BoardLinks } from '../../../entities/session/BoardLinks.tsx';
import { useSessionBoard } from '../../../entities/session/board.ts';
import { formatTime } from '../../../entities/token/format.ts';
import { errorText } from '../../../lib/error-text.ts';
import { useCallNextToken } from '../api/nextToken.ts';
import { useSessionTokens } from '../api/queryTokens.ts';
import { useQueueOffersVideo } from '../api/queue.ts';
import { useServiceTimeStats } from '../api/serviceTimeStats.ts';
import { useStartMeeting } from '../api/startMeeting.ts';
import { useTokenAction } from '../api/tokenAction.ts';
import { useLiveSession } from '../hooks/useLiveSession.ts';
import { NowServingCard } from './NowServingCard.tsx';
import { SessionStatusControls } from './SessionStatusControls.tsx';
import { TodayFigures } from './TodayFigures.tsx';
import { TokenList } from './TokenList.tsx';
import { VideoCallAction } from './VideoCallAction.tsx';
import { WalkInForm } from './WalkInForm.tsx';

const ACTIVE_STATUSES: readonly TokenStatus[] = ['waiting', 'booked', 'called', 'serving'];
const DONE_STATUSES: readonly TokenStatus[] = ['served', 'no_show'];

const isLive = (token: QueueToken) => token.status === 'called' || token.status === 'serving';

/** The staff live console of one session: call, serve, the waiting list and today's figures. */
export function LiveConsole({ sessionId }: { sessionId: string }) {
  const { t } = useTranslation('live');
  useLiveSession(sessionId);
  const board = useSessionBoard(sessionId, { errorShownInline: true });
  const active = useSessionTokens(sessionId, ACTIVE_STATUSES);
  const done = useSessionTokens(sessionId, DONE_STATUSES);
  const stats = useServiceTimeStats(sessionId);
  const next = useCallNextToken(sessionId);
  const act = useTokenAction(sessionId);
  const meeting = useStartMeeting();
  const navigate = useNavigate();
  // The answer of the last call or action, until the list catches up with it.
  const [latest, setLatestState] = useState<{ token: QueueToken; at: number } | null>(null);
  const setLatest = (token: QueueToken | null) =>
    setLatestState(token ? { token, at: Date.now() } : null);
  const [nobodyWaiting, setNobodyWaiting] = useState(false);

  const tokens = active.data ?? [];
  // "My current token" is the server's word (`calledByMe`): the same in every tab, after a
  // reload too, and gone once another desk takes it over.
  const current = useMemo(() => {
    const fresh = latest && active.dataUpdatedAt <= latest.at ? latest.token : null;
    if (fresh) return fresh.calledByMe && isLive(fresh) ? fresh : null;
    return tokens.find((token) => token.calledByMe && isLive(token)) ?? null;
  }, [tokens, latest, active.dataUpdatedAt]);
  const offersVideo = useQueueOffersVideo(current?.queueId);

  // The line, plus tokens called at other desks (they can be taken over); this desk's own
  // token is the one "Now serving" shows, so it is not in the line.
  const line = tokens
    .filter((token) => token.status === 'waiting' || (isLive(token) && token.id !== current?.id))
    .sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
  const waitingCount = line.filter((token) => token.status === 'waiting').length;
  const bookings = tokens
    .filter((token) => token.kind === 'booking' && token.status === 'booked')
    .sort((a, b) => (a.slotStartsAt ?? '').localeCompare(b.slotStartsAt ?? ''));
  const finished = done.data ?? [];

  const callNext = () => {
    act.reset();
    meeting.reset();
    next.mutate(undefined, {
      onSuccess: (result) => {
        setLatest(result.called ?? result.completed);
        setNobodyWaiting(result.called === null);
      },
    });
  };
  const onAction = (action: TokenAction) => {
    if (!current) return;
    next.reset();
    meeting.reset();
    act.mutate(
      { tokenId: current.id, action },
      {
        onSuccess: (token) => {
          setLatest(token);
          setNobodyWaiting(false);
        },
      },
    );
  };

  // Ring the visitor, then go to the meeting screen (its pre-call check, then the offer).
  const startCall = (token: QueueToken) => {
    next.reset();
    act.reset();
    meeting.mutate(
      { sessionId, tokenId: token.id },
      {
        onSuccess: (started) =>
          void navigate(
            buildPath(spaRoutes.adminMeeting, {
              queueId: started.queueId,
              sessionId: started.sessionId,
              meetingId: started.id,
            }),
          ),
      },
    );
  };

  if (board.isPending) {
    return (
      <Stack gap="md" aria-busy="true" role="status" aria-label={t('state.loading')}>
        <Skeleton height={48} radius="md" />
        <Skeleton height={220} radius="lg" />
        <Skeleton height={160} radius="lg" />
      </Stack>
    );
  }
  if (board.isError) {
    return <LoadFailed message={errorText(board.error)} onRetry={() => void board.refetch()} />;
  }

  const session = board.data;
  const waitDetail = (token: QueueToken) =>
    token.position !== null
      ? t('list.positionWait', {
          position: token.position,
          minutes: token.estimatedWaitMinutes ?? 0,
        })
      : t('list.joinedAt', { time: formatTime(token.calledAt ?? token.joinedAt) });

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" gap="md">
        <Stack gap={4}>
          <Title order={2} size="h3">
            {session.queueName}
          </Title>
          <Text c="dimmed">{session.companyName}</Text>
        </Stack>
        <Group gap="xs">
          <BoardLinks
            sessionId={sessionId}
            queueId={session.queueId}
            queueName={session.queueName}
          />
          <Button
            component={Link}
            to={buildPath(spaRoutes.adminSessionTokens, { sessionId })}
            variant="default"
            leftSection={<IconListDetails size={16} aria-hidden />}
          >
            {t('console.allTokens')}
          </Button>
          <Button
            component={Link}
            to={buildPath(spaRoutes.adminKiosk, { sessionId })}
            variant="default"
            leftSection={<IconDeviceTablet size={16} aria-hidden />}
          >
            {t('kiosk.open')}
          </Button>
        </Group>
      </Group>
      <SessionStatusControls sessionId={sessionId} status={session.status} />
      {active.isError ? (
        <Notice tone="red" role="alert" title={t('state.loadFailed')}>
          {errorText(active.error)}
        </Notice>
      ) : null}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="lg">
            <NowServingCard
              token={current}
              nobodyWaiting={nobodyWaiting}
              canCall={session.status === 'open'}
              calling={next.isPending}
              acting={act.isPending ? (act.variables?.action ?? null) : null}
              error={next.error ?? act.error ?? meeting.error}
              onCallNext={callNext}
              onAction={onAction}
              extraActions={
                current && offersVideo ? (
                  <VideoCallAction
                    token={current}
                    starting={meeting.isPending}
                    disabled={next.isPending || act.isPending}
                    error={meeting.error}
                    onStart={() => startCall(current)}
                  />
                ) : null
              }
            />
            {active.isPending ? (
              <Skeleton height={160} radius="lg" role="status" aria-label={t('state.loading')} />
            ) : (
              <TokenList
                title={t('list.waiting')}
                empty={t('list.waitingEmpty')}
                tokens={line}
                count={waitingCount}
                detail={waitDetail}
                selectedId={current?.id}
                onSelect={(token) => {
                  next.reset();
                  act.mutate(
                    { tokenId: token.id, action: 'take-over' },
                    { onSuccess: (taken) => setLatest(taken) },
                  );
                }}
              />
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="lg">
            <WalkInForm sessionId={sessionId} queueId={session.queueId} country={session.country} />
            {active.isPending ? null : (
              <TokenList
                title={t('list.bookings')}
                empty={t('list.bookingsEmpty')}
                tokens={bookings}
                detail={(token) => formatTime(token.slotStartsAt)}
              />
            )}
            <TodayFigures
              served={finished.filter((token) => token.status === 'served').length}
              noShows={finished.filter((token) => token.status === 'no_show').length}
              waiting={tokens.filter((token) => token.status === 'waiting').length}
              stats={stats.data}
            />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
