import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { CompanyWorkspace } from '../../../features/workspace/components/CompanyWorkspace.tsx';

export function Component() {
  const { t } = useTranslation('workspace');
  return (
    <>
      <PageHeader title={t('company.title')} description={t('company.description')} />
      <CompanyWorkspace />
    </>
  );
}
