import { Button, Stack } from '@mantine/core';
import { IconBuildingPlus } from '@tabler/icons-react';
import { spaRoutes } from '@upnext/contract/routes';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyBlock, LoadError, LoadingList } from '../../../components/StateViews.tsx';
import { type Membership, useActiveCompany } from '../hooks/useActiveCompany.ts';
import { CompanyPicker } from './CompanyPicker.tsx';

interface WorkspaceGateProps {
  children: (company: Membership, canManage: boolean) => ReactNode;
}

/**
 * The company context of a workspace screen: waits for the roles record, explains what to do
 * without a company, and offers the company picker to members of several.
 */
export function WorkspaceGate({ children }: WorkspaceGateProps) {
  const { t } = useTranslation('workspace');
  const { userData, companies, active, select, canManage } = useActiveCompany();

  if (userData.isPending) return <LoadingList rows={2} />;
  if (userData.isError) {
    return <LoadError error={userData.error} onRetry={() => void userData.refetch()} />;
  }
  if (!active) {
    return (
      <EmptyBlock
        icon={<IconBuildingPlus aria-hidden />}
        title={t('gate.noCompanyTitle')}
        body={t('gate.noCompanyBody')}
        action={
          <Button component={Link} to={spaRoutes.adminCompany}>
            {t('gate.createCompany')}
          </Button>
        }
      />
    );
  }
  return (
    <Stack gap="lg">
      <CompanyPicker companies={companies} activeId={active.companyId} onSelect={select} />
      {children(active, canManage)}
    </Stack>
  );
}
