import {
  Button,
  Group,
  Modal,
  NumberInput,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconStethoscope } from '@tabler/icons-react';
import { createServiceTypeBodySchema, type ServiceType } from '@upnext/contract/queues';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyBlock, LoadError, LoadingList } from '../../../components/StateViews.tsx';
import { Notice, Tag } from '../../../components/tones.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { useCreateServiceType } from '../api/createServiceType.ts';
import { useDeleteServiceType } from '../api/deleteServiceType.ts';
import { useServiceTypes } from '../api/listServiceTypes.ts';
import { useUpdateServiceType } from '../api/updateServiceType.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { contractErrors } from './formErrors.ts';
import { ItemRow } from './ItemRow.tsx';
import { formatMoney, fromMinor, toMinor } from './options.ts';

interface Values {
  name: string;
  description: string;
  durationMinutes: number | string;
  price: number | string;
  active: boolean;
}

function toBody(values: Values) {
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    durationMinutes: values.durationMinutes === '' ? Number.NaN : Number(values.durationMinutes),
    priceMinor: toMinor(values.price),
    active: values.active,
  };
}

function ServiceTypeForm({
  queueId,
  serviceType,
  currency,
  onDone,
}: {
  queueId: string;
  serviceType: ServiceType | null;
  currency: string;
  onDone: () => void;
}) {
  const { t } = useTranslation('workspace');
  const create = useCreateServiceType(queueId);
  const update = useUpdateServiceType(queueId);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: {
      name: serviceType?.name ?? '',
      description: serviceType?.description ?? '',
      durationMinutes: serviceType?.durationMinutes ?? 15,
      price: serviceType ? fromMinor(serviceType.priceMinor) : '',
      active: serviceType?.active ?? true,
    },
    validate: (values) =>
      contractErrors(createServiceTypeBodySchema, toBody(values), { priceMinor: 'price' }),
  });
  const error = create.error ?? update.error;
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) => {
        const body = toBody(values);
        if (serviceType) update.mutate({ id: serviceType.id, body }, { onSuccess: onDone });
        else create.mutate(body, { onSuccess: onDone });
      })}
    >
      <Stack gap="md">
        <TextInput
          label={t('serviceTypes.name')}
          required
          data-autofocus
          {...form.getInputProps('name')}
        />
        <Textarea
          label={t('serviceTypes.description')}
          autosize
          minRows={2}
          {...form.getInputProps('description')}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <NumberInput
            label={t('serviceTypes.duration')}
            required
            min={1}
            max={1440}
            allowDecimal={false}
            suffix={` ${t('units.min')}`}
            {...form.getInputProps('durationMinutes')}
          />
          <NumberInput
            label={t('serviceTypes.price', { currency })}
            description={t('serviceTypes.priceHint')}
            min={0}
            decimalScale={2}
            {...form.getInputProps('price')}
          />
        </SimpleGrid>
        <Switch
          label={t('serviceTypes.active')}
          description={t('serviceTypes.activeHint')}
          {...form.getInputProps('active', { type: 'checkbox' })}
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
  queueId: string;
  currency: string;
  canManage: boolean;
}

/** What a queue offers (consultation, renewal...), with duration and price. */
export function ServiceTypesPanel({ queueId, currency, canManage }: PanelProps) {
  const { t, i18n } = useTranslation('workspace');
  const list = useServiceTypes(queueId);
  const remove = useDeleteServiceType(queueId);
  const [editing, setEditing] = useState<ServiceType | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ServiceType | null>(null);

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text c="dimmed" size="sm" style={{ flex: '1 1 200px' }}>
          {t('serviceTypes.intro')}
        </Text>
        {canManage ? (
          <Button
            leftSection={<IconPlus size={18} aria-hidden />}
            onClick={() => setEditing('new')}
          >
            {t('serviceTypes.add')}
          </Button>
        ) : null}
      </Group>
      {list.isPending ? (
        <LoadingList rows={2} />
      ) : list.isError ? (
        <LoadError error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.length === 0 ? (
        <EmptyBlock
          icon={<IconStethoscope aria-hidden />}
          title={t('serviceTypes.emptyTitle')}
          body={t('serviceTypes.emptyBody')}
          order={3}
        />
      ) : (
        <Stack
          component="ul"
          gap="xs"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          aria-label={t('serviceTypes.title')}
        >
          {list.data.map((type) => (
            <ItemRow
              key={type.id}
              title={type.name}
              badges={type.active ? null : <Tag tone="gray">{t('serviceTypes.inactive')}</Tag>}
              onEdit={canManage ? () => setEditing(type) : undefined}
              onDelete={canManage ? () => setDeleting(type) : undefined}
            >
              <Text size="sm" c="dimmed">
                {[
                  t('serviceTypes.minutes', { count: type.durationMinutes }),
                  type.priceMinor === null
                    ? t('serviceTypes.free')
                    : formatMoney(type.priceMinor, currency, i18n.language),
                ].join(' · ')}
              </Text>
              {type.description ? <Text size="sm">{type.description}</Text> : null}
            </ItemRow>
          ))}
        </Stack>
      )}
      <Modal
        closeButtonProps={{ 'aria-label': t('actions.closeDialog') }}
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('serviceTypes.addTitle') : t('serviceTypes.editTitle')}
      >
        {editing !== null ? (
          <ServiceTypeForm
            queueId={queueId}
            currency={currency}
            serviceType={editing === 'new' ? null : editing}
            onDone={() => setEditing(null)}
          />
        ) : null}
      </Modal>
      {deleting ? (
        <ConfirmDialog
          opened
          title={t('serviceTypes.deleteTitle')}
          body={t('serviceTypes.deleteBody', { name: deleting.name })}
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
