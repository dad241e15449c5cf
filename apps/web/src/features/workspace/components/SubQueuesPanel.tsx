import { MultiSelect } from '@mantine/core';
import { IconLayoutList } from '@tabler/icons-react';
import type { SubQueue } from '@upnext/contract/queues';
import { useTranslation } from 'react-i18next';
import { useCompanyUsers } from '../api/listCompanyUsers.ts';
import { subQueuesApi } from '../api/queueChildren.ts';
import * as QueueChild from './QueueChild.tsx';

const toBody = (values: { name: string; staffUserIds: string[] }) => ({
  name: values.name.trim(),
  staffUserIds: values.staffUserIds,
});

function SubQueueForm({
  companyId,
  ...props
}: QueueChild.FormProps<SubQueue> & { companyId: string }) {
  const { t } = useTranslation('workspace');
  const members = useCompanyUsers(companyId);
  const initial = { name: props.item?.name ?? '', staffUserIds: props.item?.staffUserIds ?? [] };
  const form = QueueChild.useForm(subQueuesApi, initial, toBody);
  const staffOptions = (members.data ?? [])
    .filter((m) => m.status !== 'disabled')
    .map((m) => ({ value: m.userId, label: m.displayName || m.email }));

  return (
    <QueueChild.Form
      {...props}
      api={subQueuesApi}
      form={form}
      toBody={toBody}
      nameHint={t('subQueues.nameHint')}
    >
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
    </QueueChild.Form>
  );
}

/** Counters, desks or practitioners of a queue, each with the staff who serve it. */
export function SubQueuesPanel({
  companyId,
  ...props
}: QueueChild.PanelProps & { companyId: string }) {
  const { t } = useTranslation('workspace');
  // Only owners and admins may list the members (staff are refused): names are theirs to see.
  const members = useCompanyUsers(companyId, props.canManage);
  const nameOf = (userId: string) => {
    const member = members.data?.find((m) => m.userId === userId);
    return member ? member.displayName || member.email : t('subQueues.unknownStaff');
  };
  const staffLine = (sub: SubQueue) => {
    if (sub.staffUserIds.length === 0) return t('subQueues.nobodyAssigned');
    if (props.canManage) return sub.staffUserIds.map(nameOf).join(', ');
    return t('subQueues.staffCount', { count: sub.staffUserIds.length });
  };

  return (
    <QueueChild.Panel
      {...props}
      api={subQueuesApi}
      emptyIcon={<IconLayoutList aria-hidden />}
      details={(sub) => ({ line: staffLine(sub) })}
      form={(form) => <SubQueueForm {...form} companyId={companyId} />}
    />
  );
}
