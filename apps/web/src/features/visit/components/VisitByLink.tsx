import { Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconMapPin, IconTicketOff } from '@tabler/icons-react';
import { topics } from '@upnext/contract/realtime-topics';
import type { Visit } from '@upnext/contract/visits';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { EmptyBlock, LoadingList } from '../../../components/StateViews.tsx';
import { formatInstant } from '../../../entities/token/format.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useLiveTopic } from '../../../lib/realtime-cache.ts';
import { publicRealtime } from '../../../lib/stomp-client.ts';
import { useLeaveByLink, useVisitByLink } from '../api/visitLink.ts';
import { liveStatuses } from '../hooks/useLiveTokens.ts';
import type { TurnAlert } from '../hooks/useTurnAlert.ts';
import { TokenFigures, TokenNumber, YourTurn } from './LiveTokenCard.tsx';
import { SessionNotice } from './SessionNotice.tsx';
import { TurnAlerts } from './TurnAlerts.tsx';

const alertOf = (visit: Visit | undefined): TurnAlert | null =>
  visit?.status === 'called' ? 'called' : visit?.turnApproaching ? 'approaching' : null;

/**
 * A visit followed by its status link, with no account: the number, where the visitor stands,
 * where to go when called, and leaving the queue. Live over the link's topic on an anonymous
 * connection; a background tab is told when the turn approaches and comes.
 */
export function VisitByLink({ linkKey }: { linkKey: string }) {
  const { t } = useTranslation('visit');
  const visit = useVisitByLink(linkKey);
  const live = visit.data && !visit.isError;
  useLiveTopic(live ? topics.visit(linkKey) : null, publicRealtime);

  if (visit.isPending) return <LoadingList rows={3} label={t('link.loading')} />;
  if (visit.isError) {
    const ended = visit.error instanceof ApiError && visit.error.code === 'visit_ended';
    return (
      <EmptyBlock
        order={1}
        icon={<IconTicketOff size={32} aria-hidden />}
        title={ended ? t('link.endedTitle') : t('link.unknownTitle')}
        body={ended ? t('link.endedBody') : t('link.unknownBody')}
      />
    );
  }
  const data = visit.data;
  if (!liveStatuses.includes(data.status)) {
    return (
      <EmptyBlock
        order={1}
        icon={<IconTicketOff size={32} aria-hidden />}
        title={t('link.endedTitle')}
        body={
          data.status === 'served' || data.status === 'no_show' || data.status === 'cancelled'
            ? t(`link.ended.${data.status}`)
            : t('link.endedBody')
        }
      />
    );
  }
  return (
    <Stack gap="md">
      <Stack gap={2}>
        <Text c="dimmed" size="sm">
          {data.companyName}
        </Text>
        <Title order={1} fz={{ base: 'h2', sm: 'h1' }} style={{ overflowWrap: 'anywhere' }}>
          {data.queueName}
        </Title>
      </Stack>
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <Stack gap="md">
          <YourTurn token={data} counter={data.counter} />
          <SessionNotice status={data.session.status} notes={data.session.notes} />
          <TokenNumber token={data} />
          <div aria-live="polite">
            <TokenFigures token={data} />
          </div>
          {data.turnApproaching && data.status === 'waiting' ? (
            <Text fw={600} c="teal.9" data-testid="turn-approaching">
              {t('link.approaching')}
            </Text>
          ) : null}
        </Stack>
      </Paper>
      <VisitContext visit={data} />
      <TurnAlerts alert={alertOf(data)} number={data.displayNumber} counter={data.counter} />
      <Text size="sm" c="dimmed">
        {t('link.liveHint')}
      </Text>
      {data.canLeave ? <LeaveQueue linkKey={linkKey} number={data.displayNumber} /> : null}
    </Stack>
  );
}

/** Where and when: the counter, the service, the place with a map, the session's hours. */
function VisitContext({ visit }: { visit: Visit }) {
  const { t, i18n } = useTranslation('visit');
  const hours = `${formatInstant(visit.session.startsAt, i18n.language)} – ${new Intl.DateTimeFormat(
    i18n.language,
    { hour: '2-digit', minute: '2-digit', timeZone: visit.session.timezone },
  ).format(new Date(visit.session.endsAt))}`;
  const rows: Array<[string, string]> = [
    [t('link.session'), hours],
    ...(visit.counter ? ([[t('link.counter'), visit.counter]] as Array<[string, string]>) : []),
    ...(visit.serviceName
      ? ([[t('link.service'), visit.serviceName]] as Array<[string, string]>)
      : []),
  ];
  return (
    <Paper withBorder radius="lg" p="md">
      <Stack gap="xs">
        <dl style={{ margin: 0 }}>
          {rows.map(([label, value]) => (
            <Group key={label} gap="xs" wrap="nowrap" align="baseline">
              <Text component="dt" size="sm" c="dimmed" miw={96}>
                {label}
              </Text>
              <Text component="dd" m={0} style={{ overflowWrap: 'anywhere' }}>
                {value}
              </Text>
            </Group>
          ))}
        </dl>
        {visit.place ? (
          <Group gap="xs" wrap="nowrap" align="flex-start">
            <IconMapPin size={20} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
            <Stack gap={0}>
              <Text fw={600}>{visit.place.name}</Text>
              <Text size="sm">
                {[visit.place.address, visit.place.city].filter(Boolean).join(', ')}
              </Text>
              {visit.place.mapUrl ? (
                <Anchor
                  href={visit.place.mapUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  size="sm"
                >
                  {t('link.map')}
                </Anchor>
              ) : null}
            </Stack>
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
}

function LeaveQueue({ linkKey, number }: { linkKey: string; number: string }) {
  const { t } = useTranslation('visit');
  const [asking, setAsking] = useState(false);
  const leave = useLeaveByLink(linkKey);
  return (
    <>
      <Button variant="default" color="red" onClick={() => setAsking(true)}>
        {t('link.leave')}
      </Button>
      <ConfirmDialog
        opened={asking}
        title={t('link.leaveTitle', { number })}
        body={t('link.leaveBody')}
        confirmLabel={t('link.leaveConfirm')}
        danger
        loading={leave.isPending}
        error={leave.error}
        onConfirm={() => leave.mutate(undefined, { onSuccess: () => setAsking(false) })}
        onClose={() => setAsking(false)}
      />
    </>
  );
}
