import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ServiceTimeStats } from '@upnext/contract/tokens';
import { useTranslation } from 'react-i18next';
import { formatSeconds } from '../../../entities/token/format.ts';

interface TodayFiguresProps {
  served: number;
  noShows: number;
  waiting: number;
  stats: ServiceTimeStats | undefined;
}

function Figure({ label, value }: { label: string; value: string | number }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={700} size="xl">
        {value}
      </Text>
    </Stack>
  );
}

/** Served and no-show counts and service times (average, median, 90th percentile). */
export function TodayFigures({ served, noShows, waiting, stats }: TodayFiguresProps) {
  const { t } = useTranslation('live');
  return (
    <Paper withBorder radius="lg" p="md" component="section" aria-label={t('figures.title')}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('figures.title')}
        </Title>
        <SimpleGrid cols={{ base: 2, sm: 3, md: 2, lg: 3 }} spacing="md">
          <Figure label={t('figures.served')} value={served} />
          <Figure label={t('figures.noShows')} value={noShows} />
          <Figure label={t('figures.waiting')} value={waiting} />
          <Figure
            label={t('figures.average')}
            value={formatSeconds(stats?.serviceSeconds.average)}
          />
          <Figure label={t('figures.median')} value={formatSeconds(stats?.serviceSeconds.median)} />
          <Figure label={t('figures.p90')} value={formatSeconds(stats?.serviceSeconds.p90)} />
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
