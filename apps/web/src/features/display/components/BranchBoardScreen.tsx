import { Text, VisuallyHidden } from '@mantine/core';
import { topics } from '@upnext/contract/realtime-topics';
import type { SessionBoard } from '@upnext/contract/tokens';
import { useCallback, useMemo } from 'react';
import { LogoMark } from '../../../components/LogoMark.tsx';
import { useSessionBoards } from '../../../entities/session/board.ts';
import { formatTime } from '../../../entities/token/time.ts';
import { useLiveTopics } from '../../../lib/realtime-cache.ts';
import { publicRealtime } from '../../../lib/stomp-client.ts';
import { useQueueBoard } from '../api/queueBoard.ts';
import { useCallAnnouncer } from '../hooks/useCallAnnouncer.ts';
import { useTranslation } from '../texts.ts';
import classes from './boards.module.css';
import { CallNumber } from './CallNumber.tsx';
import { ScanToJoin } from './ScanToJoin.tsx';
import { WallControls } from './WallControls.tsx';

const EARLIER_SHOWN = 3;

/** A counter's card: its call in large type, its state and the calls before it. */
function CounterCard({ board, index }: { board: SessionBoard; index: number }) {
  const { t } = useTranslation('display');
  const counter = board.counter ?? t('branch.desk', { n: index + 1 });
  const earlier = board.recentlyCalled.slice(0, EARLIER_SHOWN);
  return (
    <li className={classes.card} data-testid="counter-card">
      <h2 className={classes.cardCounter}>{counter}</h2>
      <div aria-live="polite" aria-atomic data-testid="counter-call">
        <VisuallyHidden>{t('branch.callAt', { counter })}</VisuallyHidden>
        {board.nowServing ? (
          <CallNumber label={board.nowServing} size="card" />
        ) : (
          <>
            <span className={classes.cardIdle} aria-hidden>
              —
            </span>
            <VisuallyHidden>{t('nobody')}</VisuallyHidden>
          </>
        )}
      </div>
      <Text className={classes.cardMeta}>
        {board.status === 'open'
          ? t('waitingCount', { count: board.waiting })
          : t(`status.${board.status}`)}
      </Text>
      {earlier.length > 0 && (
        <Text className={classes.cardMeta}>
          {t('branch.before', {
            numbers: earlier
              .map((call) => `${call.label} (${formatTime(call.calledAt)})`)
              .join(', '),
          })}
        </Text>
      )}
    </li>
  );
}

/** The latest call among the counters: what the room hears. */
function latestCall(boards: readonly SessionBoard[]) {
  let latest: SessionBoard | undefined;
  for (const board of boards) {
    if (board.nowServingAt && (!latest?.nowServingAt || board.nowServingAt > latest.nowServingAt))
      latest = board;
  }
  return latest;
}

/** Every counter of a queue today on one wall screen (a branch board), live. */
export function BranchBoardScreen({ queueId }: { queueId: string }) {
  const { t } = useTranslation('display');
  const queue = useQueueBoard(queueId);
  const sessions = queue.data?.sessions ?? [];
  const destinations = useMemo(
    () => sessions.map((session) => topics.session(session.sessionId)),
    [sessions],
  );
  useLiveTopics(destinations, publicRealtime);
  // Each session's own cache entry, seeded by the branch board and kept live by its topic.
  const live = useSessionBoards(
    sessions.map((session) => session.sessionId),
    { connection: publicRealtime },
  );
  const boards = sessions.map((seed, index) => live[index]?.data ?? seed);
  const latest = latestCall(boards);
  const counter = latest?.nowServingCounter ?? null;
  const callOut = useCallback(
    (spoken: string) =>
      counter ? t('callOutAt', { number: spoken, counter }) : t('callOut', { number: spoken }),
    [t, counter],
  );
  const { soundOn, enableSound } = useCallAnnouncer(latest?.nowServing ?? null, callOut);

  const data = queue.data;
  return (
    <div className={classes.board}>
      <header className={classes.top}>
        <LogoMark name={t('common:brand.name')} variant="inverse" />
        <Text className={classes.place}>
          {data ? `${data.companyName} · ${data.queueName}` : ''}
        </Text>
        <WallControls soundOn={soundOn} onEnableSound={enableSound} />
      </header>
      <h1 className={classes.branchHeading}>{t('branch.title')}</h1>
      {!data ? (
        <div className={classes.empty}>
          <Text className={classes.status}>{queue.isError ? t('unavailable') : t('loading')}</Text>
        </div>
      ) : sessions.length === 0 ? (
        <div className={classes.empty}>
          <Text className={classes.status}>{t('branch.empty')}</Text>
          <Text className={classes.cardMeta}>{t('branch.emptyHint')}</Text>
        </div>
      ) : (
        <ul className={classes.counters} aria-label={t('branch.title')}>
          {boards.map((board, index) => (
            <CounterCard key={board.sessionId} board={board} index={index} />
          ))}
        </ul>
      )}
      {data && (
        <div className={classes.bottom}>
          <ScanToJoin joinCode={data.joinCode} queueName={data.queueName} />
        </div>
      )}
    </div>
  );
}
