import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { MySessions } from '../../../features/visit/components/MySessions.tsx';

export function Component() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  return (
    <>
      <PageHeader
        title={t('admin.mySessions.title')}
        description={t('admin.mySessions.description')}
      />
      <MySessions highlightTokenId={searchParams.get('token')} />
    </>
  );
}
