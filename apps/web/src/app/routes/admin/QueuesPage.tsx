import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueuesWorkspace } from '../../../features/workspace/components/QueuesWorkspace.tsx';

export function Component() {
  const { t } = useTranslation('workspace');
  return (
    <>
      <PageHeader title={t('queues.title')} description={t('queues.description')} />
      <QueuesWorkspace />
    </>
  );
}
