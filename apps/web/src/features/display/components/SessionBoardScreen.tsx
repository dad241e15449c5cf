import { Box, Text } from '@mantine/core';
import { useCallback } from 'react';
import { LogoMark } from '../../../components/LogoMark.tsx';
import { useCallAnnouncer } from '../hooks/useCallAnnouncer.ts';
import { useLiveBoard } from '../hooks/useLiveBoard.ts';
import { useTranslation } from '../texts.ts';
import classes from './boards.module.css';
import { CallNumber } from './CallNumber.tsx';
import { RecentCalls } from './RecentCalls.tsx';
import { ScanToJoin } from './ScanToJoin.tsx';
import { WallControls } from './WallControls.tsx';

/** One session's board for a waiting room's screen: the call, the calls before, scan to join. */
export function SessionBoardScreen({ sessionId }: { sessionId: string }) {
  const { t } = useTranslation('display');
  const board = useLiveBoard(sessionId);
  const data = board.data;
  const counter = data?.nowServingCounter ?? null;
  const callOut = useCallback(
    (spoken: string) =>
      counter ? t('callOutAt', { number: spoken, counter }) : t('callOut', { number: spoken }),
    [t, counter],
  );
  const { soundOn, enableSound } = useCallAnnouncer(data?.nowServing ?? null, callOut);

  const status = !data
    ? board.isError
      ? t('unavailable')
      : t('loading')
    : data.status === 'open'
      ? t('waitingCount', { count: data.waiting })
      : t(`status.${data.status}`);

  return (
    <div className={classes.board}>
      <header className={classes.top}>
        <LogoMark name={t('common:brand.name')} variant="inverse" />
        <Text className={classes.place}>
          {data ? `${data.companyName} · ${data.queueName}` : ''}
        </Text>
        <WallControls soundOn={soundOn} onEnableSound={enableSound} />
      </header>
      <div className={classes.stage}>
        <section className={classes.now} aria-labelledby="board-title">
          <h1 id="board-title" className={classes.heading}>
            {t('title')}
          </h1>
          {/* A live region: screen readers hear each call, as the room does. */}
          <Box aria-live="assertive" aria-atomic>
            {data?.nowServing ? (
              <>
                <CallNumber label={data.nowServing} testId="now-serving" />
                {counter && <Text className={classes.counter}>{t('goTo', { counter })}</Text>}
              </>
            ) : (
              <Text className={classes.dash} aria-label={t('nobody')}>
                —
              </Text>
            )}
          </Box>
          <Text className={classes.status}>{status}</Text>
          {data?.notes ? (
            <Text className={classes.notes} data-testid="board-notes">
              {data.notes}
            </Text>
          ) : null}
        </section>
        {data && (
          <div className={classes.side}>
            <RecentCalls calls={data.recentlyCalled} />
            <ScanToJoin joinCode={data.joinCode} queueName={data.queueName} />
          </div>
        )}
      </div>
    </div>
  );
}
