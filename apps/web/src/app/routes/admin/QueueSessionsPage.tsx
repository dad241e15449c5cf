import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueueSessionsWorkspace } from '../../../features/workspace/components/QueueSessionsWorkspace.tsx';

export function Component() {
  const { t } = useTranslation('workspace');
  return (
    <>
      <PageHeader title={t('sessions.title')} description={t('sessions.description')} />
      <QueueSessionsWorkspace />
    </>
  );
}
