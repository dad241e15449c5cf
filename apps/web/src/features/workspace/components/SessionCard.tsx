import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { IconClock, IconVideo } from '@tabler/icons-react';
import type { Session } from '@upnext/contract/sessions';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Tag } from '../../../components/tones.tsx';
import { SessionStatusBadge } from '../../../entities/session/SessionStatusBadge.tsx';

/** One session: when, where, status and figures, with the actions the screen allows. */
export function SessionCard({ session, actions }: { session: Session; actions: ReactNode }) {
  const { t } = useTranslation('workspace');
  const headingId = `session-${session.id}`;
  return (
    <Paper withBorder radius="lg" p="md" component="li" aria-labelledby={headingId}>
      <Group justify="space-between" align="flex-start" gap="md">
        <Stack gap={6} style={{ flex: '1 1 260px', minWidth: 0 }}>
          <Group gap="xs" wrap="wrap">
            <Group gap={6} wrap="nowrap">
              <IconClock size={18} aria-hidden />
              <Text fw={700} size="lg" id={headingId}>
                {session.startTime}–{session.endTime}
                <Text span fw={600} size="md">
                  {' · '}
                  {session.queueName}
                </Text>
              </Text>
            </Group>
            <SessionStatusBadge status={session.status} />
            {session.online ? (
              <Tag tone="grape" leftSection={<IconVideo size={12} aria-hidden />}>
                {t('queue.onlineBadge')}
              </Tag>
            ) : null}
            {session.seriesId ? (
              <Badge variant="outline" color="gray.8">
                {t('sessions.repeats')}
              </Badge>
            ) : null}
          </Group>
          <Text size="sm" c="dimmed">
            {[
              session.subQueueName ?? t('schedule.noSubQueue'),
              t('sessions.issuedOf', { issued: session.counts.issued, capacity: session.capacity }),
              t('sessions.waiting', { count: session.counts.waiting }),
            ].join(' · ')}
          </Text>
          {session.notes ? <Text size="sm">{session.notes}</Text> : null}
        </Stack>
        {actions}
      </Group>
    </Paper>
  );
}
