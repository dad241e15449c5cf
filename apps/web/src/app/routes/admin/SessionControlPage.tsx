import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { SessionControlWorkspace } from '../../../features/workspace/components/SessionControlWorkspace.tsx';

export function Component() {
  const { t } = useTranslation('workspace');
  return (
    <>
      <PageHeader title={t('control.title')} description={t('control.description')} />
      <SessionControlWorkspace />
    </>
  );
}
