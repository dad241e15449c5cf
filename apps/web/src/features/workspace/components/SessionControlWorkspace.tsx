import { Stack, Text } from '@mantine/core';
import { IconAdjustmentsHorizontal } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { EmptyBlock, LoadError, LoadingList } from '../../../components/StateViews.tsx';
import { formatDay, todayLocal } from '../../../entities/session/format.ts';
import { useMySessions } from '../api/mySessions.ts';
import { SessionActions } from './SessionActions.tsx';
import { SessionCard } from './SessionCard.tsx';

/** `/admin/session-control`: the signed-in staff member's sessions today. */
export function SessionControlWorkspace() {
  const { t, i18n } = useTranslation('workspace');
  const sessions = useMySessions();
  const list = [...(sessions.data ?? [])].sort((a, b) => a.startsAt.localeCompare(b.startsAt));

  return (
    <Stack gap="lg">
      <Text fw={600}>{formatDay(todayLocal(), i18n.language, { year: true })}</Text>
      {sessions.isPending ? (
        <LoadingList rows={2} />
      ) : sessions.isError ? (
        <LoadError error={sessions.error} onRetry={() => void sessions.refetch()} />
      ) : list.length === 0 ? (
        <EmptyBlock
          icon={<IconAdjustmentsHorizontal aria-hidden />}
          title={t('control.emptyTitle')}
          body={t('control.emptyBody')}
        />
      ) : (
        <Stack
          component="ul"
          gap="sm"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          aria-label={t('control.listLabel')}
        >
          {list.map((session) => (
            <SessionCard
              key={session.id}
              session={session}
              actions={<SessionActions session={session} variant="control" />}
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
