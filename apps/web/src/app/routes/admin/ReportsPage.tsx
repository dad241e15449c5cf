import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { ReportsWorkspace } from '../../../features/reports/components/ReportsWorkspace.tsx';
import { useCalendarLabels } from '../../../features/workspace/components/calendarLabels.ts';
import { WorkspaceGate } from '../../../features/workspace/components/WorkspaceGate.tsx';

export function Component() {
  const { t } = useTranslation('reports');
  const calendarLabels = useCalendarLabels();
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <WorkspaceGate>
        {(company) => (
          <ReportsWorkspace
            key={company.companyId}
            companyId={company.companyId}
            calendarLabels={calendarLabels}
          />
        )}
      </WorkspaceGate>
    </>
  );
}
