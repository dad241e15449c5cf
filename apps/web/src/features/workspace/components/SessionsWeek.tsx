import { Anchor, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconVideo } from '@tabler/icons-react';
import type { Session } from '@upnext/contract/sessions';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { addDays, formatDay } from '../../../entities/session/format.ts';
import { SessionStatusBadge } from '../../../entities/session/SessionStatusBadge.tsx';

interface SessionsWeekProps {
  /** The week's Monday; sessions' dates are in the company's zone, so are the columns. */
  monday: string;
  sessions: Session[];
  today: string;
  /** Where a day's heading leads: that day's list, with its actions. */
  dayHref: (date: string) => string;
  busy: boolean;
}

/** Seven columns, Monday to Sunday (stacked by day on a phone), each session a small card. */
export function SessionsWeek({ monday, sessions, today, dayHref, busy }: SessionsWeekProps) {
  const { t, i18n } = useTranslation('workspace');
  const days = Array.from({ length: 7 }, (_, i) => addDays(monday, i));
  const sorted = [...sessions].sort((a, b) => a.startsAt.localeCompare(b.startsAt));

  return (
    <SimpleGrid
      cols={{ base: 1, md: 7 }}
      spacing="xs"
      verticalSpacing="md"
      aria-busy={busy}
      style={{ opacity: busy ? 0.6 : 1 }}
    >
      {days.map((date) => {
        const ofDay = sorted.filter((s) => s.date === date);
        const day = formatDay(date, i18n.language);
        const headingId = `week-day-${date}`;
        const isToday = date === today;
        return (
          <Stack
            key={date}
            component="section"
            gap="xs"
            aria-labelledby={headingId}
            data-today={isToday || undefined}
            style={{ minWidth: 0 }}
          >
            <Title
              order={2}
              size="h6"
              id={headingId}
              pb={4}
              style={{
                borderBottom: `3px solid var(--mantine-color-${isToday ? 'blue-7' : 'gray-3'})`,
              }}
            >
              <Anchor component={Link} to={dayHref(date)} inherit c="inherit">
                {day}
              </Anchor>
              {isToday ? (
                <Text span size="xs" fw={600} c="blue.9">
                  {' · '}
                  {t('sessions.week.today')}
                </Text>
              ) : null}
            </Title>
            {ofDay.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('sessions.week.noneThisDay')}
              </Text>
            ) : (
              <Stack
                component="ul"
                gap="xs"
                p={0}
                m={0}
                style={{ listStyle: 'none' }}
                aria-label={t('sessions.listLabel', { day })}
              >
                {ofDay.map((session) => (
                  <WeekSessionCard key={session.id} session={session} />
                ))}
              </Stack>
            )}
          </Stack>
        );
      })}
    </SimpleGrid>
  );
}

function WeekSessionCard({ session }: { session: Session }) {
  const { t } = useTranslation('workspace');
  return (
    <Paper withBorder radius="md" p="xs" component="li">
      <Stack gap={4} align="flex-start">
        <Group gap={6} wrap="wrap">
          <Text fw={700} size="sm">
            {session.startTime}–{session.endTime}
          </Text>
          {session.online ? (
            <IconVideo size={14} aria-label={t('queue.onlineBadge')} role="img" />
          ) : null}
        </Group>
        <SessionStatusBadge status={session.status} size="sm" />
        <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
          {session.queueName}
        </Text>
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {session.subQueueName ?? t('schedule.noSubQueue')}
        </Text>
      </Stack>
    </Paper>
  );
}
