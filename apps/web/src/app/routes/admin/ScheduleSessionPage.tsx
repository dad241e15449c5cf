import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { ScheduleSessionWorkspace } from '../../../features/workspace/components/ScheduleSessionWorkspace.tsx';

export function Component() {
  const { t } = useTranslation('workspace');
  const { queueId = '' } = useParams<'queueId'>();
  return (
    <>
      <PageHeader title={t('schedule.title')} description={t('schedule.description')} />
      <ScheduleSessionWorkspace key={queueId} queueId={queueId} />
    </>
  );
}
