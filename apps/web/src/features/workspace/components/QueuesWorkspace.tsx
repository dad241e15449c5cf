import {
  ActionIcon,
  Badge,
  Button,
  Drawer,
  Group,
  Menu,
  Modal,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  IconArchive,
  IconArchiveOff,
  IconCalendarPlus,
  IconDots,
  IconLayoutList,
  IconListNumbers,
  IconMapPin,
  IconPencil,
  IconPlus,
  IconQrcode,
  IconSettings,
  IconStethoscope,
} from '@tabler/icons-react';
import { DEFAULT_COUNTRY } from '@upnext/contract/phone';
import type { Queue } from '@upnext/contract/queues';
import { buildPath, spaRoutes } from '@upnext/contract/routes';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { EmptyBlock, LoadError, LoadingList } from '../../../components/StateViews.tsx';
import { Tag } from '../../../components/tones.tsx';
import { formatMoney } from '../../../entities/payment/format.ts';
import { useCreateQueue } from '../api/createQueue.ts';
import { useCompany } from '../api/getCompany.ts';
import { useQueues } from '../api/listQueues.ts';
import { useUpdateQueue } from '../api/updateQueue.ts';
import type { Membership } from '../hooks/useActiveCompany.ts';
import { JoinLinkPanel } from './JoinLinkPanel.tsx';
import { notifySuccess } from './notify.ts';
import { type QueueFields, QueueForm } from './QueueForm.tsx';
import { ServiceAreasPanel } from './ServiceAreasPanel.tsx';
import { ServiceTypesPanel } from './ServiceTypesPanel.tsx';
import { SubQueuesPanel } from './SubQueuesPanel.tsx';
import { WorkspaceGate } from './WorkspaceGate.tsx';

type DrawerTab = 'subQueues' | 'serviceTypes' | 'serviceAreas' | 'joinLink';

interface QueueCardProps {
  queue: Queue;
  canManage: boolean;
  onOpen: (tab: DrawerTab) => void;
  onEdit: () => void;
  onArchive: () => void;
}

function QueueCard({ queue, canManage, onOpen, onEdit, onArchive }: QueueCardProps) {
  const { t, i18n } = useTranslation('workspace');
  const archived = queue.status === 'archived';
  const headingId = `queue-${queue.id}`;
  return (
    <Paper withBorder radius="lg" p="lg" component="article" aria-labelledby={headingId}>
      <Stack gap="sm" h="100%">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={4} style={{ minWidth: 0 }}>
            <Title order={2} size="h4" id={headingId}>
              {queue.name}
            </Title>
            <Group gap={6}>
              {archived ? (
                <Badge color="gray.8" variant="filled">
                  {t('queue.archived')}
                </Badge>
              ) : null}
              <Tag tone="brand">{t(`modes.${queue.mode}`)}</Tag>
              <Tag tone="gray">{t(`visibility.${queue.visibility}`)}</Tag>
              {queue.online ? <Tag tone="grape">{t('queue.onlineBadge')}</Tag> : null}
            </Group>
          </Stack>
          {canManage ? (
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  size="lg"
                  aria-label={t('queue.actionsFor', { name: queue.name })}
                >
                  <IconDots size={20} aria-hidden />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item leftSection={<IconPencil size={16} aria-hidden />} onClick={onEdit}>
                  {t('queue.edit')}
                </Menu.Item>
                <Menu.Item
                  leftSection={
                    archived ? (
                      <IconArchiveOff size={16} aria-hidden />
                    ) : (
                      <IconArchive size={16} aria-hidden />
                    )
                  }
                  color={archived ? undefined : 'red.9'}
                  onClick={onArchive}
                >
                  {archived ? t('queue.restore') : t('queue.archive')}
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          ) : null}
        </Group>
        {queue.description ? (
          <Text size="sm" lineClamp={2}>
            {queue.description}
          </Text>
        ) : null}
        <Text size="sm" c="dimmed">
          {[
            t('queue.prefixLine', { prefix: queue.tokenPrefix || '—' }),
            queue.priceMinor !== null && queue.currency
              ? formatMoney(queue.priceMinor, queue.currency, i18n.language)
              : t('queue.free'),
          ].join(' · ')}
        </Text>
        <Group gap="xs" mt="auto">
          <Button
            variant="light"
            size="sm"
            leftSection={<IconSettings size={16} aria-hidden />}
            onClick={() => onOpen('subQueues')}
            aria-label={t('queue.manageNamed', { name: queue.name })}
          >
            {t('queue.manage')}
          </Button>
          <Button
            variant="default"
            size="sm"
            leftSection={<IconQrcode size={16} aria-hidden />}
            onClick={() => onOpen('joinLink')}
            aria-label={t('queue.joinLinkNamed', { name: queue.name })}
          >
            {t('queue.joinLink')}
          </Button>
          {canManage && !archived ? (
            <Button
              component={Link}
              to={buildPath(spaRoutes.adminScheduleSession, { queueId: queue.id })}
              variant="default"
              size="sm"
              leftSection={<IconCalendarPlus size={16} aria-hidden />}
              aria-label={t('queue.scheduleNamed', { name: queue.name })}
            >
              {t('queue.schedule')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Paper>
  );
}

function QueueList({ company, canManage }: { company: Membership; canManage: boolean }) {
  const { t } = useTranslation('workspace');
  const companyId = company.companyId;
  const queues = useQueues(companyId);
  const details = useCompany(companyId);
  const create = useCreateQueue();
  const update = useUpdateQueue();
  const narrow = useMediaQuery('(max-width: 48em)');
  const [show, setShow] = useState<'active' | 'archived'>('active');
  const [form, setForm] = useState<Queue | 'new' | null>(null);
  const [archiving, setArchiving] = useState<Queue | null>(null);
  const [open, setOpen] = useState<{ id: string; tab: DrawerTab } | null>(null);
  const currency = details.data?.currency ?? 'EUR';

  const submit = (fields: QueueFields) => {
    if (form === 'new') {
      create.mutate(
        { companyId, ...fields },
        {
          onSuccess: (queue) => {
            setForm(null);
            notifySuccess(t('queue.created', { name: queue.name }));
            // Straight on to its counters and services: a queue is not usable without them.
            setOpen({ id: queue.id, tab: 'subQueues' });
          },
        },
      );
    } else if (form) {
      update.mutate({ queueId: form.id, body: fields }, { onSuccess: () => setForm(null) });
    }
  };

  const all = queues.data ?? [];
  const visible = all.filter((q) => q.status === show);
  const openQueue = open ? all.find((q) => q.id === open.id) : undefined;

  return (
    <Stack gap="lg">
      <Group justify="space-between" gap="sm">
        <SegmentedControl
          value={show}
          onChange={(value) => setShow(value as 'active' | 'archived')}
          data={[
            { value: 'active', label: t('queue.showActive') },
            { value: 'archived', label: t('queue.showArchived') },
          ]}
          aria-label={t('queue.filterLabel')}
        />
        {canManage ? (
          <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={() => setForm('new')}>
            {t('queue.new')}
          </Button>
        ) : null}
      </Group>

      {queues.isPending ? (
        <LoadingList rows={3} />
      ) : queues.isError ? (
        <LoadError error={queues.error} onRetry={() => void queues.refetch()} />
      ) : visible.length === 0 ? (
        <EmptyBlock
          icon={<IconListNumbers aria-hidden />}
          title={show === 'active' ? t('queue.emptyTitle') : t('queue.emptyArchivedTitle')}
          body={show === 'active' ? t('queue.emptyBody') : undefined}
          action={
            canManage && show === 'active' ? (
              <Button
                leftSection={<IconPlus size={18} aria-hidden />}
                onClick={() => setForm('new')}
              >
                {t('queue.createFirst')}
              </Button>
            ) : undefined
          }
        />
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} spacing="md">
          {visible.map((queue) => (
            <QueueCard
              key={queue.id}
              queue={queue}
              canManage={canManage}
              onOpen={(tab) => setOpen({ id: queue.id, tab })}
              onEdit={() => setForm(queue)}
              onArchive={() => setArchiving(queue)}
            />
          ))}
        </SimpleGrid>
      )}

      <Modal
        closeButtonProps={{ 'aria-label': t('actions.closeDialog') }}
        opened={form !== null}
        onClose={() => setForm(null)}
        title={form === 'new' ? t('queue.newTitle') : t('queue.editTitle')}
        size="lg"
        fullScreen={narrow}
      >
        {form !== null ? (
          <QueueForm
            companyId={companyId}
            defaultCurrency={currency}
            queue={form === 'new' ? undefined : form}
            loading={create.isPending || update.isPending}
            onSubmit={submit}
            onCancel={() => setForm(null)}
          />
        ) : null}
      </Modal>

      {archiving ? (
        <ConfirmDialog
          opened
          title={
            archiving.status === 'archived' ? t('queue.restoreTitle') : t('queue.archiveTitle')
          }
          body={
            archiving.status === 'archived'
              ? t('queue.restoreBody', { name: archiving.name })
              : t('queue.archiveBody', { name: archiving.name })
          }
          confirmLabel={archiving.status === 'archived' ? t('queue.restore') : t('queue.archive')}
          danger={archiving.status !== 'archived'}
          loading={update.isPending}
          error={update.error}
          onConfirm={() =>
            update.mutate(
              {
                queueId: archiving.id,
                body: { status: archiving.status === 'archived' ? 'active' : 'archived' },
              },
              { onSuccess: () => setArchiving(null) },
            )
          }
          onClose={() => {
            setArchiving(null);
            update.reset();
          }}
        />
      ) : null}

      <Drawer
        closeButtonProps={{ 'aria-label': t('actions.closeDialog') }}
        opened={Boolean(openQueue)}
        onClose={() => setOpen(null)}
        position="right"
        size={narrow ? '100%' : 'xl'}
        title={openQueue?.name}
        padding="lg"
      >
        {openQueue && open ? (
          <Tabs
            value={open.tab}
            onChange={(tab) =>
              setOpen({ id: openQueue.id, tab: (tab as DrawerTab) ?? 'subQueues' })
            }
            keepMounted={false}
          >
            <Tabs.List grow mb="md">
              <Tabs.Tab value="subQueues" leftSection={<IconLayoutList size={16} aria-hidden />}>
                {t('subQueues.title')}
              </Tabs.Tab>
              <Tabs.Tab
                value="serviceTypes"
                leftSection={<IconStethoscope size={16} aria-hidden />}
              >
                {t('serviceTypes.title')}
              </Tabs.Tab>
              <Tabs.Tab value="serviceAreas" leftSection={<IconMapPin size={16} aria-hidden />}>
                {t('serviceAreas.title')}
              </Tabs.Tab>
              <Tabs.Tab value="joinLink" leftSection={<IconQrcode size={16} aria-hidden />}>
                {t('joinLink.title')}
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="subQueues">
              <SubQueuesPanel companyId={companyId} queueId={openQueue.id} canManage={canManage} />
            </Tabs.Panel>
            <Tabs.Panel value="serviceTypes">
              <ServiceTypesPanel
                queueId={openQueue.id}
                currency={openQueue.currency ?? currency}
                canManage={canManage}
              />
            </Tabs.Panel>
            <Tabs.Panel value="serviceAreas">
              <ServiceAreasPanel
                queueId={openQueue.id}
                canManage={canManage}
                country={details.data?.country ?? DEFAULT_COUNTRY}
              />
            </Tabs.Panel>
            <Tabs.Panel value="joinLink">
              <JoinLinkPanel queue={openQueue} />
            </Tabs.Panel>
          </Tabs>
        ) : null}
      </Drawer>
    </Stack>
  );
}

/** `/admin/queues`: the company's queues and, per queue, its counters, services, areas and link. */
export function QueuesWorkspace() {
  return (
    <WorkspaceGate>
      {(company, canManage) => <QueueList company={company} canManage={canManage} />}
    </WorkspaceGate>
  );
}
