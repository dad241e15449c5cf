import { IconTicket } from '@tabler/icons-react';
import { ScreenPlaceholder } from '../../components/ScreenPlaceholder.tsx';

export function Component() {
  return <ScreenPlaceholder i18nKey="admin.mySessions" icon={<IconTicket aria-hidden />} />;
}
