import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { LiveConsole } from '../../../features/live/components/LiveConsole.tsx';

export function Component() {
  const { t } = useTranslation('live');
  const params = useParams<'sessionId' | 'date' | 'subQueueId'>();
  const sessionId = params.sessionId ?? '';
  return (
    <>
      <PageHeader
        title={t('console.title')}
        description={t('console.description', { date: params.date ?? '' })}
      />
      <LiveConsole key={sessionId} sessionId={sessionId} />
    </>
  );
}
