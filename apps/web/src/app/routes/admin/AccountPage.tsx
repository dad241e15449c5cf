import { IconUserCircle } from '@tabler/icons-react';
import { ScreenPlaceholder } from '../../components/ScreenPlaceholder.tsx';

export function Component() {
  return <ScreenPlaceholder i18nKey="admin.account" icon={<IconUserCircle aria-hidden />} />;
}
