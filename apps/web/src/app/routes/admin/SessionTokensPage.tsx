import { IconReceipt } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { ScreenPlaceholder } from '../../components/ScreenPlaceholder.tsx';

export function Component() {
  const params = useParams<'sessionId'>();
  return (
    <ScreenPlaceholder
      i18nKey="admin.sessionTokens"
      icon={<IconReceipt aria-hidden />}
      values={{ sessionId: params.sessionId ?? '' }}
    />
  );
}
