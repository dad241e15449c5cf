import { IconBuilding } from '@tabler/icons-react';
import { ScreenPlaceholder } from '../../components/ScreenPlaceholder.tsx';

export function Component() {
  return <ScreenPlaceholder i18nKey="admin.company" icon={<IconBuilding aria-hidden />} />;
}
