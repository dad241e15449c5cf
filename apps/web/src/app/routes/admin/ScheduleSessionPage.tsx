import { IconCalendarPlus } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { ScreenPlaceholder } from '../../components/ScreenPlaceholder.tsx';

export function Component() {
  const params = useParams<'queueId'>();
  return (
    <ScreenPlaceholder
      i18nKey="admin.scheduleSession"
      icon={<IconCalendarPlus aria-hidden />}
      values={{ queueId: params.queueId ?? '' }}
    />
  );
}
