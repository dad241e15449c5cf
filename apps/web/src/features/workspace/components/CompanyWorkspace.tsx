import { Button, Group, Modal, Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBuildingPlus, IconSettings, IconUsers } from '@tabler/icons-react';
import type { CreateCompanyBody } from '@upnext/contract/companies';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ErrorNotice, LoadError, LoadingList } from '../../../components/StateViews.tsx';
import { useCreateCompany } from '../api/createCompany.ts';
import { useCompany } from '../api/getCompany.ts';
import { useUpdateCompany } from '../api/updateCompany.ts';
import {
  type Membership,
  storeActiveCompanyId,
  useActiveCompany,
} from '../hooks/useActiveCompany.ts';
import { CompanyForm } from './CompanyForm.tsx';
import { CompanyPicker } from './CompanyPicker.tsx';
import { notifySuccess } from './notify.ts';
import { StaffPanel } from './StaffPanel.tsx';

function CreateCompany({ onCreated }: { onCreated?: () => void }) {
  const { t } = useTranslation('workspace');
  const create = useCreateCompany();
  const submit = (body: CreateCompanyBody) =>
    create.mutate(body, {
      onSuccess: (company) => {
        storeActiveCompanyId(company.id);
        notifySuccess(t('company.createdBody', { name: company.name }), t('company.created'));
        onCreated?.();
      },
    });
  return (
    <Stack gap="md">
      <ErrorNotice error={create.error} />
      <CompanyForm submitLabel={t('company.create')} loading={create.isPending} onSubmit={submit} />
    </Stack>
  );
}

function CompanySettings({ companyId, canManage }: { companyId: string; canManage: boolean }) {
  const { t } = useTranslation('workspace');
  const company = useCompany(companyId);
  const update = useUpdateCompany(companyId);
  if (company.isPending) return <LoadingList rows={2} />;
  if (company.isError) {
    return <LoadError error={company.error} onRetry={() => void company.refetch()} />;
  }
  return (
    <Stack gap="md">
      {canManage ? null : (
        <Text c="dimmed" size="sm">
          {t('company.readOnly')}
        </Text>
      )}
      <ErrorNotice error={update.error} />
      <CompanyForm
        // A saved change re-initialises the form with the stored values.
        key={company.data.updatedAt}
        company={company.data}
        submitLabel={t('company.save')}
        loading={update.isPending}
        readOnly={!canManage}
        onSubmit={(body) =>
          update.mutate(body, {
            onSuccess: () => notifySuccess(t('company.saved')),
          })
        }
      />
    </Stack>
  );
}

/** A tab another feature adds to the company's settings (the route composes them). */
interface CompanyTab {
  value: string;
  label: string;
  icon: ReactNode;
  panel: ReactNode;
}

interface CompanyWorkspaceProps {
  /** More tabs for the active company (e.g. Billing, Payments), after Settings and Staff. */
  extraTabs?: (company: Membership, canManage: boolean) => CompanyTab[];
}

/**
 * `/admin/company`: create the first company, or the chosen company's settings, staff and the
 * tabs the route adds; `?tab=` opens one (links from elsewhere, e.g. "Upgrade" to Billing).
 */
export function CompanyWorkspace({ extraTabs }: CompanyWorkspaceProps = {}) {
  const { t } = useTranslation('workspace');
  const { userData, companies, active, select, canManage } = useActiveCompany();
  const [searchParams, setSearchParams] = useSearchParams();
  const [creating, { open, close }] = useDisclosure(false);

  if (userData.isPending) return <LoadingList rows={3} />;
  if (userData.isError) {
    return <LoadError error={userData.error} onRetry={() => void userData.refetch()} />;
  }
  if (!active) {
    return (
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} maw={720}>
        <Stack gap="md">
          <div>
            <Title order={2}>{t('company.createTitle')}</Title>
            <Text c="dimmed" mt={4}>
              {t('company.createBody')}
            </Text>
          </div>
          <CreateCompany />
        </Stack>
      </Paper>
    );
  }

  const more = extraTabs?.(active, canManage) ?? [];
  const asked = searchParams.get('tab');
  const tabs = ['settings', ...(canManage ? ['staff'] : []), ...more.map((extra) => extra.value)];
  const tab = asked && tabs.includes(asked) ? asked : 'settings';

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="sm">
        <CompanyPicker companies={companies} activeId={active.companyId} onSelect={select} />
        <Button
          variant="default"
          leftSection={<IconBuildingPlus size={18} aria-hidden />}
          onClick={open}
        >
          {t('company.createAnother')}
        </Button>
      </Group>
      <Tabs
        value={tab}
        onChange={(value) =>
          setSearchParams(value && value !== 'settings' ? { tab: value } : {}, { replace: true })
        }
        keepMounted={false}
      >
        <Tabs.List>
          <Tabs.Tab value="settings" leftSection={<IconSettings size={18} aria-hidden />}>
            {t('company.tabs.settings')}
          </Tabs.Tab>
          {canManage ? (
            <Tabs.Tab value="staff" leftSection={<IconUsers size={18} aria-hidden />}>
              {t('company.tabs.staff')}
            </Tabs.Tab>
          ) : null}
          {more.map((extra) => (
            <Tabs.Tab key={extra.value} value={extra.value} leftSection={extra.icon}>
              {extra.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="settings" pt="lg">
          <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} maw={880}>
            <CompanySettings companyId={active.companyId} canManage={canManage} />
          </Paper>
        </Tabs.Panel>
        {canManage ? (
          <Tabs.Panel value="staff" pt="lg">
            <StaffPanel
              companyId={active.companyId}
              canManage={canManage}
              callerRole={active.role}
            />
          </Tabs.Panel>
        ) : null}
        {more.map((extra) => (
          <Tabs.Panel key={extra.value} value={extra.value} pt="lg">
            {extra.panel}
          </Tabs.Panel>
        ))}
      </Tabs>
      <Modal
        opened={creating}
        onClose={close}
        title={t('company.createTitle')}
        size="lg"
        closeButtonProps={{ 'aria-label': t('actions.closeDialog') }}
      >
        <CreateCompany onCreated={close} />
      </Modal>
    </Stack>
  );
}
