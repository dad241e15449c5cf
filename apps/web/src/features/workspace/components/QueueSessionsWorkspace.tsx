import {
  ActionIcon,
  Button,
  Group,
  Menu,
  SegmentedControl,
  Select,
  Stack,
  Text,
} from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import {
  IconCalendarEvent,
  IconCalendarPlus,
  IconChevronDown,
  IconChevronLeft,
  IconChevronRight,
} from '@tabler/icons-react';
import { buildPath, spaRoutes } from '@upnext/contract/routes';
import { localDateSchema } from '@upnext/contract/sessions';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { EmptyBlock, LoadError, LoadingList } from '../../../components/StateViews.tsx';
import { addDays, formatDay, todayLocal, weekStart } from '../../../entities/session/format.ts';
import { useCompany } from '../api/getCompany.ts';
import { useQueues } from '../api/listQueues.ts';
import { useSessionsQuery } from '../api/querySessions.ts';
import type { Membership } from '../hooks/useActiveCompany.ts';
import { useCalendarLabels } from './calendarLabels.ts';
import { SessionActions } from './SessionActions.tsx';
import { SessionCard } from './SessionCard.tsx';
import { SessionsWeek } from './SessionsWeek.tsx';
import { WorkspaceGate } from './WorkspaceGate.tsx';

function SessionsOfDayOrWeek({ company, canManage }: { company: Membership; canManage: boolean }) {
  const { t, i18n } = useTranslation('workspace');
  const calendarLabels = useCalendarLabels();
  const [params, setParams] = useSearchParams();
  // Days and weeks are the company's: its sessions' dates are in its zone.
  const timeZone = useCompany(company.companyId).data?.timezone;
  const today = todayLocal(timeZone);
  const requested = params.get('date') ?? '';
  const date = localDateSchema.safeParse(requested).success ? requested : today;
  const week = params.get('view') === 'week';
  const monday = weekStart(date);
  const queueId = params.get('queue') || undefined;
  const queues = useQueues(company.companyId);
  const sessions = useSessionsQuery({
    companyId: company.companyId,
    queueId,
    from: week ? monday : date,
    to: week ? addDays(monday, 6) : date,
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
  const dayLabel = formatDay(date, i18n.language, { year: true });
  const weekLabel = t('sessions.week.range', {
    start: formatDay(monday, i18n.language),
    end: formatDay(addDays(monday, 6), i18n.language, { year: true }),
  });
  const dayHref = (day: string) => {
    const next = new URLSearchParams(params);
    next.delete('view');
    next.set('date', day);
    return `?${next}`;
  };

  return (
    <Stack gap="lg">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <SegmentedControl
          aria-label={t('sessions.view')}
          data={[
            { value: 'day', label: t('sessions.dayView') },
            { value: 'week', label: t('sessions.weekView') },
          ]}
          value={week ? 'week' : 'day'}
          onChange={(value) => setParam('view', value === 'week' ? 'week' : null)}
        />
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
        <Group gap={4} wrap="nowrap">
          <ActionIcon
            variant="default"
            size={36}
            aria-label={week ? t('sessions.previousWeek') : t('sessions.previousDay')}
            onClick={() => setParam('date', addDays(date, week ? -7 : -1))}
          >
            <IconChevronLeft size={18} aria-hidden />
          </ActionIcon>
          <Button variant="default" onClick={() => setParam('date', today)}>
            {week ? t('sessions.thisWeek') : t('sessions.today')}
          </Button>
          <ActionIcon
            variant="default"
            size={36}
            aria-label={week ? t('sessions.nextWeek') : t('sessions.nextDay')}
            onClick={() => setParam('date', addDays(date, week ? 7 : 1))}
          >
            <IconChevronRight size={18} aria-hidden />
          </ActionIcon>
        </Group>
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
        {week
          ? sessions.isSuccess
            ? t('sessions.week.count', { count: list.length, week: weekLabel })
            : weekLabel
          : sessions.isSuccess
            ? t('sessions.countOn', { count: list.length, day: dayLabel })
            : dayLabel}
      </Text>

      {sessions.isPending ? (
        <LoadingList rows={3} />
      ) : sessions.isError ? (
        <LoadError error={sessions.error} onRetry={() => void sessions.refetch()} />
      ) : list.length === 0 ? (
        <EmptyBlock
          icon={<IconCalendarEvent aria-hidden />}
          title={week ? t('sessions.week.emptyTitle') : t('sessions.emptyTitle')}
          body={canManage ? t('sessions.emptyBody') : t('sessions.emptyBodyStaff')}
        />
      ) : week ? (
        <SessionsWeek
          monday={monday}
          sessions={list}
          today={today}
          dayHref={dayHref}
          busy={sessions.isPlaceholderData}
        />
      ) : (
        <Stack
          component="ul"
          gap="sm"
          p={0}
          m={0}
          style={{ listStyle: 'none', opacity: sessions.isPlaceholderData ? 0.6 : 1 }}
          aria-label={t('sessions.listLabel', { day: dayLabel })}
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

/** `/admin/queue-sessions`: the company's sessions of one day or week, across queues or for one. */
export function QueueSessionsWorkspace() {
  return (
    <WorkspaceGate>
      {(company, canManage) => <SessionsOfDayOrWeek company={company} canManage={canManage} />}
    </WorkspaceGate>
  );
}
