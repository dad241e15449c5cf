import { Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconBellRinging } from '@tabler/icons-react';
import type { QueueToken } from '@upnext/contract/tokens';
import { useTranslation } from 'react-i18next';
import { Notice } from '../../../components/tones.tsx';
import { formatInstant } from '../../../entities/token/format.ts';
import { TokenStatusBadge } from '../../../entities/token/TokenStatusBadge.tsx';
import { followsSession, liveStatuses } from '../hooks/useLiveTokens.ts';
import { CallWaiting } from './CallWaiting.tsx';
import { PaymentStatusLine, PayPanel, type Price } from './PaymentPanel.tsx';
import { SessionNotice } from './SessionNotice.tsx';
import { TurnAlerts } from './TurnAlerts.tsx';

/** Position and estimated wait of a waiting token; nothing for other states. */
export function TokenFigures({
  token,
}: {
  token: Pick<QueueToken, 'status' | 'position' | 'estimatedWaitMinutes'>;
}) {
  const { t } = useTranslation('visit');
  if (token.status !== 'waiting' || token.position === null) return null;
  const minutes = token.estimatedWaitMinutes;
  return (
    <SimpleGrid cols={2} spacing="sm">
      <Stack gap={0}>
        <Text size="sm" c="dimmed">
          {t('token.position')}
        </Text>
        <Text fw={700} fz="xl" data-testid="token-position">
          {t('token.positionValue', { position: token.position })}
        </Text>
      </Stack>
      <Stack gap={0}>
        <Text size="sm" c="dimmed">
          {t('token.wait')}
        </Text>
        <Text fw={700} fz="xl" data-testid="token-wait">
          {minutes === null || minutes <= 0
            ? t('token.waitNone')
            : t('token.waitMinutes', { count: minutes })}
        </Text>
      </Stack>
    </SimpleGrid>
  );
}

/**
 * "It is your turn" (and where to go, when known), in a live region so screen readers say it
 * as soon as it appears.
 */
export function YourTurn({
  token,
  counter = null,
}: {
  token: Pick<QueueToken, 'status'>;
  counter?: string | null;
}) {
  const { t } = useTranslation('visit');
  return (
    <div aria-live="assertive" aria-atomic="true">
      {token.status === 'called' ? (
        <Notice
          tone="teal"
          icon={<IconBellRinging aria-hidden />}
          title={<Title order={2}>{t('token.yourTurn')}</Title>}
        >
          {counter ? t('token.yourTurnAt', { counter }) : t('token.yourTurnBody')}
        </Notice>
      ) : null}
    </div>
  );
}

/** "Your token", its status and its number in large type (one line), and a booking's time. */
export function TokenNumber({
  token,
}: {
  token: Pick<QueueToken, 'status' | 'displayNumber' | 'slotStartsAt'>;
}) {
  const { t, i18n } = useTranslation('visit');
  return (
    <>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Text fw={600}>{t('token.yours')}</Text>
        <TokenStatusBadge status={token.status} />
      </Group>
      <Text
        component="p"
        data-testid="token-number"
        aria-label={t('token.numberLabel', { number: token.displayNumber })}
        fw={800}
        lh={1}
        ta="center"
        fz={{ base: 64, sm: 96 }}
        m={0}
        style={{ whiteSpace: 'nowrap' }}
      >
        {token.displayNumber}
      </Text>
      {token.slotStartsAt ? (
        <Text ta="center" fw={600}>
          {t('token.slotAt', { time: formatInstant(token.slotStartsAt, i18n.language) })}
        </Text>
      ) : null}
    </>
  );
}

/**
 * The confirmation that stays live: the number in large type, position, wait and the call; a
 * token awaiting payment shows what to pay and the hold's time left, a paid one its refund.
 */
export function LiveTokenCard({ token, price }: { token: QueueToken; price?: Price | null }) {
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
      <Stack gap="md">
        <YourTurn token={token} />
        {liveStatuses.includes(token.status) ? <CallWaiting tokenId={token.id} /> : null}
        {followsSession(token) ? (
          <SessionNotice status={token.sessionStatus} notes={token.sessionNotes} />
        ) : null}
        <TokenNumber token={token} />
        <div aria-live="polite">
          <TokenFigures token={token} />
        </div>
        <PaymentStatusLine token={token} />
        {token.status === 'pending_payment' ? <PayPanel token={token} price={price} /> : null}
        {liveStatuses.includes(token.status) ? (
          <TurnAlerts
            alert={token.status === 'called' ? 'called' : null}
            number={token.displayNumber}
            counter={token.counter}
          />
        ) : null}
      </Stack>
    </Paper>
  );
}
