import { BarChart, DonutChart, MatrixChart } from '@mantine/charts';
import { Box, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconChartBar, IconDownload } from '@tabler/icons-react';
import type { Report, ReportGranularity } from '@upnext/contract/reports';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyBlock } from '../../../components/StateViews.tsx';
import { formatDay } from '../../../entities/session/format.ts';
import { formatSeconds } from '../../../entities/token/format.ts';
import { downloadCsv } from '../../../lib/csv.ts';
import { hoursToCsv, periodsToCsv } from '../csv.ts';

/** How a period's start reads: "Tue 10 Jun", "Week of 9 Jun", "June 2031". */
function periodLabel(
  start: string,
  granularity: ReportGranularity,
  locale: string,
  weekOf: (day: string) => string,
) {
  if (granularity === 'day') return formatDay(start, locale);
  const [y, m, d] = start.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  if (granularity === 'month') {
    return new Intl.DateTimeFormat(locale, {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(date);
  }
  const day = new Intl.DateTimeFormat(locale, {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  }).format(date);
  return weekOf(day);
}

/** Monday ... Sunday, short, in the reader's language (1 January 2024 was a Monday). */
const weekdayNames = (locale: string) =>
  Array.from({ length: 7 }, (_, i) =>
    new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' }).format(
      new Date(Date.UTC(2024, 0, 1 + i)),
    ),
  );
const hours = Array.from({ length: 24 }, (_, h) => String(h).padStart(2, '0'));

function Figure({
  label,
  value,
  detail,
  id,
}: {
  label: string;
  value: ReactNode;
  detail?: string;
  id: string;
}) {
  return (
    <Paper withBorder radius="md" p="md" data-testid={`figure-${id}`}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={28} fw={700} lh={1.2}>
        {value}
      </Text>
      {detail ? (
        <Text size="xs" c="dimmed" mt={4}>
          {detail}
        </Text>
      ) : null}
    </Paper>
  );
}

function Section({
  title,
  action,
  children,
}: {
  title: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} component="section" miw={0}>
      <Group justify="space-between" align="center" mb="md" gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        {action}
      </Group>
      {children}
    </Paper>
  );
}

/** Wide content (the heat map, the table) scrolls sideways on a phone, by touch or keyboard. */
function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box
      tabIndex={0}
      role="region"
      aria-label={label}
      style={{ width: 0, minWidth: '100%', overflowX: 'auto' }}
    >
      {children}
    </Box>
  );
}

function CsvButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Button
      variant="default"
      size="xs"
      leftSection={<IconDownload size={16} aria-hidden />}
      onClick={onClick}
    >
      {label}
    </Button>
  );
}

export function ReportView({ report, refreshing }: { report: Report; refreshing: boolean }) {
  const { t, i18n } = useTranslation('reports');
  const locale = i18n.language;
  const { totals } = report;
  const label = (start: string) =>
    periodLabel(start, report.granularity, locale, (day) => t('weekOf', { day }));
  const fileName = (what: string) => `${what}-${report.from}-to-${report.to}.csv`;
  const days = weekdayNames(locale);
  const distribution = (d: Report['totals']['waitSeconds']) =>
    t('figures.averageAndP90', { average: formatSeconds(d.average), p90: formatSeconds(d.p90) });

  return (
    <Stack gap="lg" aria-busy={refreshing} style={{ opacity: refreshing ? 0.6 : 1 }}>
      <Text size="sm" c="dimmed">
        {t('timezone', { timezone: report.timezone })}
      </Text>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm">
        <Figure id="visits" label={t('figures.visits')} value={totals.visits} />
        <Figure id="served" label={t('figures.served')} value={totals.served} />
        <Figure id="noShows" label={t('figures.noShows')} value={totals.noShows} />
        <Figure id="cancelled" label={t('figures.cancelled')} value={totals.cancelled} />
        <Figure
          id="wait"
          label={t('figures.medianWait')}
          value={formatSeconds(totals.waitSeconds.median)}
          detail={distribution(totals.waitSeconds)}
        />
        <Figure
          id="service"
          label={t('figures.medianService')}
          value={formatSeconds(totals.serviceSeconds.median)}
          detail={distribution(totals.serviceSeconds)}
        />
      </SimpleGrid>

      {totals.visits === 0 ? (
        <EmptyBlock
          icon={<IconChartBar aria-hidden />}
          title={t('empty.title')}
          body={t('empty.body')}
        />
      ) : (
        <>
          <Section title={t('charts.overTime')}>
            <BarChart
              h={280}
              data={report.periods.map((p) => ({
                period: label(p.start),
                served: p.served,
                noShows: p.noShows,
                cancelled: p.cancelled,
              }))}
              dataKey="period"
              type="stacked"
              withLegend
              legendProps={{ verticalAlign: 'bottom' }}
              series={[
                { name: 'served', label: t('figures.served'), color: 'brand.6' },
                { name: 'noShows', label: t('figures.noShows'), color: 'yellow.6' },
                { name: 'cancelled', label: t('figures.cancelled'), color: 'gray.5' },
              ]}
              aria-label={t('charts.overTimeLabel')}
            />
          </Section>

          <SimpleGrid cols={{ base: 1, md: report.video ? 2 : 1 }} spacing="lg">
            <Section title={t('charts.kinds')}>
              <Group gap="xl" wrap="wrap">
                <DonutChart
                  size={160}
                  thickness={26}
                  withTooltip={false}
                  // Its numbers are written beside it; the picture itself is not announced.
                  pieChartProps={{ accessibilityLayer: false }}
                  pieProps={{ rootTabIndex: -1 }}
                  data={[
                    { name: t('figures.walkIns'), value: totals.walkIns, color: 'brand.6' },
                    { name: t('figures.bookings'), value: totals.bookings, color: 'grape.6' },
                  ]}
                  aria-hidden
                />
                <Stack gap={4}>
                  <Text>
                    <Text span fw={700}>
                      {totals.walkIns}
                    </Text>{' '}
                    {t('figures.walkIns')}
                  </Text>
                  <Text>
                    <Text span fw={700}>
                      {totals.bookings}
                    </Text>{' '}
                    {t('figures.bookings')}
                  </Text>
                </Stack>
              </Group>
            </Section>
            {report.video ? (
              <Section title={t('charts.consultations')}>
                <SimpleGrid cols={2} spacing="sm">
                  <Figure
                    id="consultationsHeld"
                    label={t('figures.consultationsHeld')}
                    value={totals.consultationsHeld}
                  />
                  <Figure
                    id="consultationsUnanswered"
                    label={t('figures.consultationsUnanswered')}
                    value={totals.consultationsUnanswered}
                  />
                </SimpleGrid>
              </Section>
            ) : null}
          </SimpleGrid>

          <Section
            title={t('charts.busiestHours')}
            action={
              <CsvButton
                label={t('csv.hours')}
                onClick={() => downloadCsv(fileName('busiest-hours'), hoursToCsv(report))}
              />
            }
          >
            <Text size="sm" c="dimmed" mb="sm">
              {t('charts.busiestHoursHelp')}
            </Text>
            <ScrollRegion label={t('charts.busiestHours')}>
              <MatrixChart
                data={report.busiestHours.map((cell) => ({
                  x: hours[cell.hour] as string,
                  y: days[cell.weekday - 1] as string,
                  value: cell.visits,
                }))}
                xLabels={hours}
                yLabels={days}
                withXLabels
                withYLabels
                xLabelsRotation={0}
                xLabelsHeight={24}
                yLabelsWidth={44}
                cellSize={22}
                gap={2}
                colors={['brand.1', 'brand.3', 'brand.5', 'brand.7']}
                emptyColor="gray.1"
                withLegend
                legendLabels={[t('charts.fewer'), t('charts.more')]}
                withTooltip
                getTooltipLabel={(cell) =>
                  t('charts.cell', { day: cell.y, hour: cell.x, count: cell.value ?? 0 })
                }
                role="img"
                aria-label={t('charts.busiestHoursLabel')}
              />
            </ScrollRegion>
          </Section>

          <Section
            title={t('table.title')}
            action={
              <CsvButton
                label={t('csv.periods')}
                onClick={() => downloadCsv(fileName('report'), periodsToCsv(report))}
              />
            }
          >
            <ScrollRegion label={t('table.title')}>
              <Table
                miw={report.video ? 980 : 860}
                striped
                verticalSpacing="xs"
                data-testid="report-periods"
              >
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t(`table.period.${report.granularity}`)}</Table.Th>
                    <Table.Th ta="right">{t('figures.visits')}</Table.Th>
                    <Table.Th ta="right">{t('figures.served')}</Table.Th>
                    <Table.Th ta="right">{t('figures.noShows')}</Table.Th>
                    <Table.Th ta="right">{t('figures.cancelled')}</Table.Th>
                    <Table.Th ta="right">{t('figures.walkIns')}</Table.Th>
                    <Table.Th ta="right">{t('figures.bookings')}</Table.Th>
                    <Table.Th ta="right">{t('table.wait')}</Table.Th>
                    <Table.Th ta="right">{t('table.service')}</Table.Th>
                    {report.video ? (
                      <Table.Th ta="right">{t('figures.consultationsHeld')}</Table.Th>
                    ) : null}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {report.periods.map((p) => (
                    <Table.Tr key={p.start}>
                      <Table.Td>{label(p.start)}</Table.Td>
                      <Table.Td ta="right">{p.visits}</Table.Td>
                      <Table.Td ta="right">{p.served}</Table.Td>
                      <Table.Td ta="right">{p.noShows}</Table.Td>
                      <Table.Td ta="right">{p.cancelled}</Table.Td>
                      <Table.Td ta="right">{p.walkIns}</Table.Td>
                      <Table.Td ta="right">{p.bookings}</Table.Td>
                      <Table.Td ta="right">{formatSeconds(p.waitSeconds.median)}</Table.Td>
                      <Table.Td ta="right">{formatSeconds(p.serviceSeconds.median)}</Table.Td>
                      {report.video ? <Table.Td ta="right">{p.consultationsHeld}</Table.Td> : null}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollRegion>
          </Section>
        </>
      )}
    </Stack>
  );
}
