import { Group, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { type CalendarAriaLabels, DatePickerInput } from '@mantine/dates';
import { IconCalendarEvent } from '@tabler/icons-react';
import {
  periodProblem,
  REPORT_MAX_DAYS,
  type ReportGranularity,
  reportGranularities,
} from '@upnext/contract/reports';
import { localDateSchema } from '@upnext/contract/sessions';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LoadError, LoadingList } from '../../../components/StateViews.tsx';
import { Notice } from '../../../components/tones.tsx';
import { addDays, todayLocal } from '../../../entities/session/format.ts';
import { useReport } from '../api/getReport.ts';
import { ReportView } from './ReportView.tsx';

const COMPANY = 'company';

/** `q:<queueId>` or `s:<subQueueId>` in the scope picker and the URL. */
function scopeQuery(scope: string) {
  if (scope.startsWith('q:')) return { queueId: scope.slice(2) };
  if (scope.startsWith('s:')) return { subQueueId: scope.slice(2) };
  return {};
}

const dateParam = (value: string | null, fallback: string) =>
  value && localDateSchema.safeParse(value).success ? value : fallback;

/**
 * A company's reports: the scope (company, queue or sub-queue), the period and its grouping
 * are in the address, so a report can be bookmarked or shared with a colleague.
 */
export function ReportsWorkspace({
  companyId,
  calendarLabels,
}: {
  companyId: string;
  calendarLabels: CalendarAriaLabels;
}) {
  const { t } = useTranslation('reports');
  const [params, setParams] = useSearchParams();
  const today = todayLocal();
  const to = dateParam(params.get('to'), today);
  const from = dateParam(params.get('from'), addDays(to, -6));
  const requested = params.get('by') as ReportGranularity | null;
  const granularity = requested && reportGranularities.includes(requested) ? requested : 'day';
  const scope = params.get('scope') ?? COMPANY;
  const problem = periodProblem(from, to);
  const report = useReport(
    companyId,
    { from, to, granularity, ...scopeQuery(scope) },
    problem === null,
  );

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

  const queues = report.data?.queues ?? [];
  const scopes = [
    { value: COMPANY, label: t('scope.company') },
    ...queues.map((queue) => ({
      group: queue.archived ? t('scope.archived', { name: queue.name }) : queue.name,
      items: [
        { value: `q:${queue.id}`, label: t('scope.wholeQueue', { name: queue.name }) },
        ...queue.subQueues.map((sub) => ({
          value: `s:${sub.id}`,
          label: `${queue.name} · ${sub.name}`,
        })),
      ],
    })),
  ];
  const knownScope =
    scope === COMPANY ||
    queues.some((q) => `q:${q.id}` === scope || q.subQueues.some((sub) => `s:${sub.id}` === scope));

  return (
    <Stack gap="lg">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <Select
          label={t('scope.label')}
          data={scopes}
          // Until the first report brings the queues, a queue in the address shows as loading.
          value={knownScope ? scope : null}
          placeholder={t('scope.loading')}
          onChange={(value) => setParam('scope', value === COMPANY ? null : value)}
          allowDeselect={false}
          w={{ base: '100%', xs: 260 }}
          comboboxProps={{ withinPortal: true }}
        />
        <DatePickerInput
          ariaLabels={calendarLabels}
          label={t('period.from')}
          value={from}
          onChange={(value) => setParam('from', value)}
          valueFormat="D MMM YYYY"
          leftSection={<IconCalendarEvent size={18} aria-hidden />}
          w={{ base: '100%', xs: 170 }}
          popoverProps={{ withinPortal: true }}
        />
        <DatePickerInput
          ariaLabels={calendarLabels}
          label={t('period.to')}
          value={to}
          onChange={(value) => setParam('to', value)}
          valueFormat="D MMM YYYY"
          leftSection={<IconCalendarEvent size={18} aria-hidden />}
          w={{ base: '100%', xs: 170 }}
          popoverProps={{ withinPortal: true }}
        />
        <Stack gap={4} w={{ base: '100%', xs: 'auto' }}>
          <Text size="sm" fw={500} id="report-granularity">
            {t('period.by')}
          </Text>
          <SegmentedControl
            aria-labelledby="report-granularity"
            value={granularity}
            onChange={(value) => setParam('by', value === 'day' ? null : value)}
            data={reportGranularities.map((value) => ({
              value,
              label: t(`granularity.${value}`),
            }))}
          />
        </Stack>
      </Group>

      {problem ? (
        <Notice tone="yellow" role="alert" title={t('period.invalidTitle')}>
          {t(`period.${problem}`, { max: REPORT_MAX_DAYS })}
        </Notice>
      ) : report.isPending ? (
        <LoadingList rows={3} label={t('loading')} />
      ) : report.isError ? (
        <LoadError error={report.error} onRetry={() => void report.refetch()} />
      ) : (
        <ReportView report={report.data} refreshing={report.isPlaceholderData} />
      )}
    </Stack>
  );
}
