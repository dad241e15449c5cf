import { Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import type { ScheduleResult } from '@upnext/contract/sessions';
import { useTranslation } from 'react-i18next';
import { Notice, Tag } from '../../../components/tones.tsx';
import { formatDay } from '../../../entities/session/format.ts';
import { ScrollBox } from './ScrollBox.tsx';

interface SchedulePreviewProps {
  result: ScheduleResult;
  /** The form changed since this preview: say so instead of showing a stale plan as current. */
  stale: boolean;
  /** A series offers to leave out one clashing date (and to take a left-out one back). */
  skipping?: {
    skipDates: readonly string[];
    onSkip: (date: string) => void;
    onKeep: (date: string) => void;
    busy: boolean;
  };
}

/** What the schedule would create, each occurrence with the sessions it would overlap. */
export function SchedulePreview({ result, stale, skipping }: SchedulePreviewProps) {
  const { t, i18n } = useTranslation('workspace');
  // Skipped dates (skipDates or skipConflicts) create nothing: they are listed, but not counted or alarming.
  const created = result.planned.filter((p) => !p.skipped);
  const skipped = result.planned.length - created.length;
  const clashing = created.filter((p) => p.conflicts.length > 0);

  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'lg' }}
      component="section"
      aria-labelledby="schedule-preview-title"
      style={{ opacity: stale ? 0.6 : 1 }}
    >
      <Stack gap="md">
        <Title order={2} size="h3" id="schedule-preview-title">
          {t('schedule.preview.title')}
        </Title>
        {stale ? <Notice tone="yellow">{t('schedule.preview.stale')}</Notice> : null}
        {created.length === 0 ? (
          <Notice tone="yellow" role="status">
            {t('schedule.preview.none')}
          </Notice>
        ) : clashing.length > 0 ? (
          <Notice
            tone="red"
            icon={<IconAlertTriangle aria-hidden />}
            title={t('schedule.preview.conflictsTitle', { count: clashing.length })}
            role="alert"
          >
            {t(
              skipping ? 'schedule.preview.conflictsBodySeries' : 'schedule.preview.conflictsBody',
              {
                count: clashing.length,
                total: created.length,
              },
            )}
          </Notice>
        ) : (
          <Notice tone="teal" icon={<IconCircleCheck aria-hidden />} role="status">
            {t('schedule.preview.ok', { count: created.length })}
          </Notice>
        )}
        {skipped > 0 ? (
          <Notice tone="gray" role="status">
            {t('schedule.preview.skippedCount', { count: skipped })}
          </Notice>
        ) : null}
        {result.planned.length > 0 ? (
          <ScrollBox label={t('schedule.preview.listLabel')} maxHeight={420}>
            <Table verticalSpacing="xs" stickyHeader>
              <Table.Caption>
                {t('schedule.preview.caption', { zone: result.timezone })}
              </Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('schedule.preview.date')}</Table.Th>
                  <Table.Th>{t('schedule.preview.time')}</Table.Th>
                  <Table.Th>{t('schedule.preview.check')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {result.planned.map((planned) => {
                  const day = formatDay(planned.date, i18n.language, { year: true });
                  return (
                    <Table.Tr
                      key={planned.date}
                      data-conflict={
                        (!planned.skipped && planned.conflicts.length > 0) || undefined
                      }
                      data-skipped={planned.skipped || undefined}
                    >
                      <Table.Td>{day}</Table.Td>
                      <Table.Td>
                        {planned.startTime}–{planned.endTime}
                      </Table.Td>
                      <Table.Td>
                        {planned.skipped ? (
                          <Group gap="xs" wrap="wrap">
                            <Tag tone="gray">
                              {planned.conflicts.length > 0
                                ? t('schedule.preview.skippedClash')
                                : t('schedule.preview.skipped')}
                            </Tag>
                            {skipping?.skipDates.includes(planned.date) ? (
                              <Button
                                size="compact-sm"
                                variant="subtle"
                                disabled={skipping.busy}
                                aria-label={t('schedule.preview.keepDate', { day })}
                                onClick={() => skipping.onKeep(planned.date)}
                              >
                                {t('schedule.preview.keep')}
                              </Button>
                            ) : null}
                          </Group>
                        ) : planned.conflicts.length === 0 ? (
                          <Tag tone="teal">{t('schedule.preview.free')}</Tag>
                        ) : (
                          <Stack gap={4} align="flex-start">
                            {planned.conflicts.map((conflict) => (
                              <Text key={conflict.sessionId} size="sm" c="red.9" fw={500}>
                                {t('schedule.preview.overlaps', {
                                  start: conflict.startTime,
                                  end: conflict.endTime,
                                  status: t(`entities:session.status.${conflict.status}`),
                                })}
                              </Text>
                            ))}
                            {skipping ? (
                              <Button
                                size="compact-sm"
                                variant="outline"
                                color="red.9"
                                disabled={skipping.busy}
                                aria-label={t('schedule.preview.skipDate', { day })}
                                onClick={() => skipping.onSkip(planned.date)}
                              >
                                {t('schedule.preview.skip')}
                              </Button>
                            ) : null}
                          </Stack>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </ScrollBox>
        ) : null}
      </Stack>
    </Paper>
  );
}
