import { IconCreditCard, IconReceipt } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { BillingPanel } from '../../../features/billing/components/BillingPanel.tsx';
import { PaymentsPanel } from '../../../features/billing/components/PaymentsPanel.tsx';
import { CompanyWorkspace } from '../../../features/workspace/components/CompanyWorkspace.tsx';

/** The company's settings and staff (workspace), its Billing and its Payments (billing). */
export function Component() {
  const { t } = useTranslation('workspace');
  const { t: b } = useTranslation('billing');
  return (
    <>
      <PageHeader title={t('company.title')} description={t('company.description')} />
      <CompanyWorkspace
        extraTabs={(company, canManage) =>
          canManage
            ? [
                {
                  value: 'billing',
                  label: b('tabs.billing'),
                  icon: <IconCreditCard size={18} aria-hidden />,
                  panel: (
                    <BillingPanel companyId={company.companyId} canBuy={company.role === 'owner'} />
                  ),
                },
                {
                  value: 'payments',
                  label: b('tabs.payments'),
                  icon: <IconReceipt size={18} aria-hidden />,
                  panel: <PaymentsPanel companyId={company.companyId} />,
                },
              ]
            : []
        }
      />
    </>
  );
}
