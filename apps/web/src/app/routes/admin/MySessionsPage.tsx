import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { useIsCompanyMember } from '../../../entities/user/api.ts';
import { MySessions } from '../../../features/visit/components/MySessions.tsx';

export function Component() {
  const { t } = useTranslation();
  const [searchParams] = useSearchParams();
  const page = useIsCompanyMember() ? 'mySessions' : 'myVisits';
  return (
    <>
      <PageHeader title={t(`admin.${page}.title`)} description={t(`admin.${page}.description`)} />
      <MySessions highlightTokenId={searchParams.get('token')} />
    </>
  );
}
