import { Button, Group, Modal, MultiSelect, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconLayoutList, IconPlus } from '@tabler/icons-react';
import { createSubQueueBodySchema, type SubQueue } from '@upnext/contract/queues';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyBlock, LoadError, LoadingList } from '../../../components/StateViews.tsx';
import { Notice } from '../../../components/tones.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { useCreateSubQueue } from '../api/createSubQueue.ts';
import { useDeleteSubQueue } from '../api/deleteSubQueue.ts';
import { useCompanyUsers } from '../api/listCompanyUsers.ts';
import { useSubQueues } from '../api/listSubQueues.ts';
import { useUpdateSubQueue } from '../api/updateSubQueue.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { contractErrors } from './formErrors.ts';
import { ItemRow } from './ItemRow.tsx';

interface SubQueueFormProps {
  companyId: string;
  queueId: string;
  subQueue: SubQueue | null;
  onDone: () => void;
}

function SubQueueForm({ companyId, queueId, subQueue, onDone }: SubQueueFormProps) {
  const { t } = useTranslation('workspace');
  const members = useCompanyUsers(companyId);
  const create = useCreateSubQueue(queueId);
  const update = useUpdateSubQueue(queueId);
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: subQueue?.name ?? '', staffUserIds: subQueue?.staffUserIds ?? [] },
    validate: (values) => contractErrors(createSubQueueBodySchema, values),
  });
  const staffOptions = (members.data ?? [])
    .filter((m) => m.status !== 'disabled')
    .map((m) => ({ value: m.userId, label: m.displayName || m.email }));
  const error = create.error ?? update.error;

  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) => {
        const body = { name: values.name.trim(), staffUserIds: values.staffUserIds };
        if (subQueue) update.mutate({ id: subQueue.id, body }, { onSuccess: onDone });
        else create.mutate(body, { onSuccess: onDone });
      })}
    >
      <Stack gap="md">
        <TextInput
          label={t('subQueues.name')}
          description={t('subQueues.nameHint')}
          required
          data-autofocus
          {...form.getInputProps('name')}
        />
        <MultiSelect
          label={t('subQueues.staff')}
          description={t('subQueues.staffHint')}
          data={staffOptions}
          searchable
          clearable
          nothingFoundMessage={t('subQueues.noStaff')}
          disabled={members.isPending}
          comboboxProps={{ withinPortal: true }}
          {...form.getInputProps('staffUserIds')}
        />
        {error ? (
          <Notice tone="red" role="alert">
            {errorText(error)}
          </Notice>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" loading={create.isPending || update.isPending}>
            {t('actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface PanelProps {
  companyId: string;
  queueId: string;
  canManage: boolean;
}

/** Counters, desks or practitioners of a queue, each with the staff who serve it. */
export function SubQueuesPanel({ companyId, queueId, canManage }: PanelProps) {
  const { t } = useTranslation('workspace');
  const list = useSubQueues(queueId);
  // Only owners and admins may list the members (staff are refused): names are theirs to see.
  const members = useCompanyUsers(companyId, canManage);
  const remove = useDeleteSubQueue(queueId);
  const [editing, setEditing] = useState<SubQueue | 'new' | null>(null);
  const [deleting, setDeleting] = useState<SubQueue | null>(null);
  const nameOf = (userId: string) => {
    const member = members.data?.find((m) => m.userId === userId);
    return member ? member.displayName || member.email : t('subQueues.unknownStaff');
  };

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text c="dimmed" size="sm" style={{ flex: '1 1 200px' }}>
          {t('subQueues.intro')}
        </Text>
        {canManage ? (
          <Button
            leftSection={<IconPlus size={18} aria-hidden />}
            onClick={() => setEditing('new')}
          >
            {t('subQueues.add')}
          </Button>
        ) : null}
      </Group>
      {list.isPending ? (
        <LoadingList rows={2} />
      ) : list.isError ? (
        <LoadError error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.length === 0 ? (
        <EmptyBlock
          icon={<IconLayoutList aria-hidden />}
          title={t('subQueues.emptyTitle')}
          body={t('subQueues.emptyBody')}
          order={3}
        />
      ) : (
        <Stack
          component="ul"
          gap="xs"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          aria-label={t('subQueues.title')}
        >
          {list.data.map((sub) => (
            <ItemRow
              key={sub.id}
              title={sub.name}
              onEdit={canManage ? () => setEditing(sub) : undefined}
              onDelete={canManage ? () => setDeleting(sub) : undefined}
            >
              <Text size="sm" c="dimmed">
                {sub.staffUserIds.length === 0
                  ? t('subQueues.nobodyAssigned')
                  : canManage
                    ? sub.staffUserIds.map(nameOf).join(', ')
                    : t('subQueues.staffCount', { count: sub.staffUserIds.length })}
              </Text>
            </ItemRow>
          ))}
        </Stack>
      )}
      <Modal
        closeButtonProps={{ 'aria-label': t('actions.closeDialog') }}
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('subQueues.addTitle') : t('subQueues.editTitle')}
      >
        {editing !== null ? (
          <SubQueueForm
            companyId={companyId}
            queueId={queueId}
            subQueue={editing === 'new' ? null : editing}
            onDone={() => setEditing(null)}
          />
        ) : null}
      </Modal>
      {deleting ? (
        <ConfirmDialog
          opened
          title={t('subQueues.deleteTitle')}
          body={t('subQueues.deleteBody', { name: deleting.name })}
          confirmLabel={t('actions.delete')}
          danger
          loading={remove.isPending}
          error={remove.error}
          onConfirm={() => remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
          onClose={() => {
            setDeleting(null);
            remove.reset();
          }}
        />
      ) : null}
    </Stack>
  );
}
