import { IconCalendarEvent } from '@tabler/icons-react';
import { ScreenPlaceholder } from '../../components/ScreenPlaceholder.tsx';

export function Component() {
  return (
    <ScreenPlaceholder i18nKey="admin.queueSessions" icon={<IconCalendarEvent aria-hidden />} />
  );
}
