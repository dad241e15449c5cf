import { addOns } from '@upnext/contract/plans';
import { useTranslation } from 'react-i18next';
import { LegalDocument } from '../components/LegalDocument.tsx';
import { usePageTitle } from '../components/usePageTitle.ts';

export function Component() {
  const { t } = useTranslation('marketing');
  usePageTitle(t('terms.meta.title'));
  return (
    <LegalDocument
      page="terms"
      values={{
        uptime: addOns.uptimePercent,
        exportDays: addOns.exportDays,
      }}
    />
  );
}
