import { addOns, plans } from '@upnext/contract/plans';
import { useTranslation } from 'react-i18next';
import { LegalDocument } from '../components/LegalDocument.tsx';
import { usePageTitle } from '../components/usePageTitle.ts';

export function Component() {
  const { t } = useTranslation('marketing');
  usePageTitle(t('privacy.meta.title'));
  return (
    <LegalDocument
      page="privacy"
      values={{
        freeMonths: plans.free.retentionMonths,
        proMonths: plans.pro.retentionMonths,
        businessMonths: plans.business.retentionMonths,
        exportDays: addOns.exportDays,
      }}
    />
  );
}
