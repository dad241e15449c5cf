import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { SessionTokensTable } from '../../../features/live/components/SessionTokensTable.tsx';

export function Component() {
  const { t } = useTranslation('live');
  const params = useParams<'sessionId'>();
  const sessionId = params.sessionId ?? '';
  return (
    <>
      <PageHeader title={t('tokens.title')} description={t('tokens.description')} />
      <SessionTokensTable key={sessionId} sessionId={sessionId} />
    </>
  );
}
