import { Box, Button, Center, Group, Stack, Text, Title } from '@mantine/core';
import { IconVolume } from '@tabler/icons-react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Logo } from '../../components/Logo.tsx';
import { useCallAnnouncer } from '../../features/display/hooks/useCallAnnouncer.ts';
import { useLiveBoard } from '../../features/display/hooks/useLiveBoard.ts';
import { MAIN_CONTENT_ID } from '../components/SkipLink.tsx';
import classes from './DisplayPage.module.css';

/** The public board for a waiting room's screen: full window, readable across a room. */
export function Component() {
  const { t } = useTranslation();
  const { sessionId = '' } = useParams<'sessionId'>();
  const board = useLiveBoard(sessionId);
  const data = board.data;
  const counter = data?.nowServingCounter ?? null;
  const callOut = useCallback(
    (spoken: string) =>
      counter
        ? t('display.callOutAt', { number: spoken, counter })
        : t('display.callOut', { number: spoken }),
    [t, counter],
  );
  const { soundOn, enableSound } = useCallAnnouncer(data?.nowServing ?? null, callOut);

  const status = !data
    ? board.isError
      ? t('display.unavailable')
      : t('display.loading')
    : data.status === 'open'
      ? t('display.waitingCount', { count: data.waiting })
      : t(`display.status.${data.status}`);

  return (
    <Box component="main" id={MAIN_CONTENT_ID} tabIndex={-1} className={classes.board}>
      <Group className={classes.top} justify="space-between" wrap="nowrap">
        <Logo variant="inverse" />
        {data && (
          <Text className={classes.place}>
            {data.companyName} · {data.queueName}
          </Text>
        )}
      </Group>
      <Center h="100%">
        <Stack align="center" gap="lg" px="md" ta="center">
          <Title order={1} className={classes.heading}>
            {t('display.title')}
          </Title>
          {/* A live region: screen readers hear each call, as the room does. */}
          <Box aria-live="assertive" aria-atomic>
            {data?.nowServing ? (
              <>
                <Text className={classes.called} data-testid="now-serving">
                  {data.nowServing}
                </Text>
                {counter && (
                  <Text className={classes.counter}>{t('display.goTo', { counter })}</Text>
                )}
              </>
            ) : (
              <Text className={classes.number} aria-label={t('display.nobody')}>
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
          {data && data.recentlyCalled.length > 0 && (
            <Text className={classes.hint}>
              {t('display.recent', { numbers: data.recentlyCalled.join('  ·  ') })}
            </Text>
          )}
          {!soundOn && (
            <Button
              variant="white"
              color="dark"
              leftSection={<IconVolume size={18} aria-hidden />}
              onClick={enableSound}
            >
              {t('display.enableSound')}
            </Button>
          )}
        </Stack>
      </Center>
    </Box>
  );
}
