import { IconBroadcast } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { ScreenPlaceholder } from '../../components/ScreenPlaceholder.tsx';

export function Component() {
  const params = useParams<'sessionId' | 'date'>();
  return (
    <ScreenPlaceholder
      i18nKey="admin.liveSession"
      icon={<IconBroadcast aria-hidden />}
      values={{ sessionId: params.sessionId ?? '', date: params.date ?? '' }}
    />
  );
}
