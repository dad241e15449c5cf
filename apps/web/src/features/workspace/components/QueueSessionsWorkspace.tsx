import { Button, Group, Menu, Select, Stack, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconCalendarEvent, IconCalendarPlus, IconChevronDown } from '@tabler/icons-react';
import { buildPath, spaRoutes } from '@upnext/contract/routes';
import { localDateSchema } from '@upnext/contract/sessions';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { EmptyBlock, LoadError, LoadingList } from '../../../components/StateViews.tsx';
import { formatDay, todayLocal } from '../../../entities/session/format.ts';
import { useQueues } from '../api/listQueues.ts';
import { useSessionsQuery } from '../api/querySessions.ts';
import type { Membership } from '../hooks/useActiveCompany.ts';
import { useCalendarLabels } from './calendarLabels.ts';
import { SessionActions } from './SessionActions.tsx';
import { SessionCard } from './SessionCard.tsx';
import { WorkspaceGate } from './WorkspaceGate.tsx';

function SessionsOfDay({ company, canManage }: { company: Membership; canManage: boolean }) {
  const { t, i18n } = useTranslation('workspace');
  const calendarLabels = useCalendarLabels();
  const [params, setParams] = useSearchParams();
  const requested = params.get('date') ?? '';
  const date = localDateSchema.safeParse(requested).success ? requested : todayLocal();
  const queueId = params.get('queue') || undefined;
  const queues = useQueues(company.companyId);
  const sessions = useSessionsQuery({
    companyId: company.companyId,
    queueId,
    from: date,
    to: date,
  });
  const activeQueues = (queues.data ?? []).filter((q) => q.status === 'active');

  const setParam = (key: string, value: string | null) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );

  const list = [...(sessions.data ?? [])].sort((a, b) => a.startsAt.localeCompare(b.startsAt));

  return (
    <Stack gap="lg">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <DatePickerInput
          ariaLabels={calendarLabels}
          label={t('sessions.date')}
          value={date}
          onChange={(value) => setParam('date', value)}
          valueFormat="ddd D MMM YYYY"
          leftSection={<IconCalendarEvent size={18} aria-hidden />}
          w={{ base: '100%', xs: 220 }}
          popoverProps={{ withinPortal: true }}
        />
        <Select
          label={t('sessions.queueFilter')}
          data={[
            { value: '', label: t('sessions.allQueues') },
            ...(queues.data ?? []).map((q) => ({ value: q.id, label: q.name })),
          ]}
          value={queueId ?? ''}
          onChange={(value) => setParam('queue', value)}
          allowDeselect={false}
          w={{ base: '100%', xs: 240 }}
        />
        <Button variant="default" onClick={() => setParam('date', todayLocal())}>
          {t('sessions.today')}
        </Button>
        {canManage && activeQueues.length > 0 ? (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button
                ml={{ base: 0, sm: 'auto' }}
                leftSection={<IconCalendarPlus size={18} aria-hidden />}
                rightSection={<IconChevronDown size={16} aria-hidden />}
              >
                {t('sessions.schedule')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Label>{t('sessions.scheduleFor')}</Menu.Label>
              {activeQueues.map((q) => (
                <Menu.Item
                  key={q.id}
                  component={Link}
                  to={buildPath(spaRoutes.adminScheduleSession, { queueId: q.id })}
                >
                  {q.name}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        ) : null}
      </Group>

      <Text fw={600} aria-live="polite">
        {sessions.isSuccess
          ? t('sessions.countOn', {
              count: list.length,
              day: formatDay(date, i18n.language, { year: true }),
            })
          : formatDay(date, i18n.language, { year: true })}
      </Text>

      {sessions.isPending ? (
        <LoadingList rows={3} />
      ) : sessions.isError ? (
        <LoadError error={sessions.error} onRetry={() => void sessions.refetch()} />
      ) : list.length === 0 ? (
        <EmptyBlock
          icon={<IconCalendarEvent aria-hidden />}
          title={t('sessions.emptyTitle')}
          body={canManage ? t('sessions.emptyBody') : t('sessions.emptyBodyStaff')}
        />
      ) : (
        <Stack
          component="ul"
          gap="sm"
          p={0}
          m={0}
          style={{ listStyle: 'none', opacity: sessions.isPlaceholderData ? 0.6 : 1 }}
          aria-label={t('sessions.listLabel', {
            day: formatDay(date, i18n.language, { year: true }),
          })}
          aria-busy={sessions.isPlaceholderData}
        >
          {list.map((session) => (
            <SessionCard
              key={session.id}
              session={session}
              actions={canManage ? <SessionActions session={session} variant="full" /> : null}
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** `/admin/queue-sessions`: the company's sessions of one day, across queues or for one. */
export function QueueSessionsWorkspace() {
  return (
    <WorkspaceGate>
      {(company, canManage) => <SessionsOfDay company={company} canManage={canManage} />}
    </WorkspaceGate>
  );
}
