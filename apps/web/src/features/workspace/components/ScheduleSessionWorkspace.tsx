import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { IconArrowLeft, IconListNumbers } from '@tabler/icons-react';
import { spaRoutes } from '@upnext/contract/routes';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { EmptyBlock, LoadError, LoadingList } from '../../../components/StateViews.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useQueue } from '../api/getQueue.ts';
import { serviceTypesApi, subQueuesApi } from '../api/queueChildren.ts';
import { ScheduleSessionForm } from './ScheduleSessionForm.tsx';

/** `/admin/schedule-session/{queueId}`: plan sessions of one queue, preview, then save. */
export function ScheduleSessionWorkspace({ queueId }: { queueId: string }) {
  const { t } = useTranslation('workspace');
  const navigate = useNavigate();
  const queue = useQueue(queueId);
  const subQueues = subQueuesApi.useList(queueId);
  const serviceTypes = serviceTypesApi.useList(queueId);

  const back = (
    <Anchor component={Link} to={spaRoutes.adminQueues} size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={16} aria-hidden />
        {t('schedule.backToQueues')}
      </Group>
    </Anchor>
  );

  if (queue.isPending || subQueues.isPending || serviceTypes.isPending) {
    return <LoadingList rows={3} />;
  }
  const failed = queue.error ?? subQueues.error ?? serviceTypes.error;
  if (
    failed instanceof ApiError &&
    (failed.status === 404 || failed.code === 'validation_failed')
  ) {
    return (
      <EmptyBlock
        icon={<IconListNumbers aria-hidden />}
        title={t('schedule.notFoundTitle')}
        body={t('schedule.notFoundBody')}
        action={
          <Button component={Link} to={spaRoutes.adminQueues}>
            {t('schedule.backToQueues')}
          </Button>
        }
      />
    );
  }
  if (failed || !queue.data || !subQueues.data || !serviceTypes.data) {
    return (
      <LoadError
        error={failed}
        onRetry={() => {
          void queue.refetch();
          void subQueues.refetch();
          void serviceTypes.refetch();
        }}
      />
    );
  }

  return (
    <Stack gap="lg">
      {back}
      <Text size="lg">
        {t('schedule.forQueue')}{' '}
        <Text span fw={700}>
          {queue.data.name}
        </Text>
        {' · '}
        {t(`modes.${queue.data.mode}`)}
      </Text>
      <ScheduleSessionForm
        queue={queue.data}
        subQueues={subQueues.data}
        serviceTypes={serviceTypes.data}
        onScheduled={(result) => {
          const first = result.sessions[0]?.date ?? result.planned[0]?.date;
          const search = new URLSearchParams({ queue: queueId, ...(first ? { date: first } : {}) });
          void navigate(`${spaRoutes.adminQueueSessions}?${search.toString()}`);
        }}
      />
    </Stack>
  );
}
