import {
  Button,
  Group,
  Modal,
  NumberInput,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconMapPin, IconPlus } from '@tabler/icons-react';
import { createServiceAreaBodySchema, type ServiceArea } from '@upnext/contract/queues';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyBlock, LoadError, LoadingList } from '../../../components/StateViews.tsx';
import { Notice } from '../../../components/tones.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { useCreateServiceArea } from '../api/createServiceArea.ts';
import { useDeleteServiceArea } from '../api/deleteServiceArea.ts';
import { useServiceAreas } from '../api/listServiceAreas.ts';
import { useUpdateServiceArea } from '../api/updateServiceArea.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { contractErrors } from './formErrors.ts';
import { ItemRow } from './ItemRow.tsx';

interface Values {
  name: string;
  address: string;
  city: string;
  latitude: number | string;
  longitude: number | string;
  phone: string;
  notes: string;
}

const coordinate = (value: number | string) => (value === '' ? null : Number(value));

function toBody(values: Values) {
  return {
    name: values.name.trim(),
    address: values.address.trim(),
    city: values.city.trim(),
    latitude: coordinate(values.latitude),
    longitude: coordinate(values.longitude),
    phone: values.phone.trim() || null,
    notes: values.notes.trim(),
  };
}

function ServiceAreaForm({
  queueId,
  area,
  onDone,
}: {
  queueId: string;
  area: ServiceArea | null;
  onDone: () => void;
}) {
  const { t } = useTranslation('workspace');
  const create = useCreateServiceArea(queueId);
  const update = useUpdateServiceArea(queueId);
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: {
      name: area?.name ?? '',
      address: area?.address ?? '',
      city: area?.city ?? '',
      latitude: area?.latitude ?? '',
      longitude: area?.longitude ?? '',
      phone: area?.phone ?? '',
      notes: area?.notes ?? '',
    },
    validate: (values) => contractErrors(createServiceAreaBodySchema, toBody(values)),
  });
  const error = create.error ?? update.error;
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) => {
        const body = toBody(values);
        if (area) update.mutate({ id: area.id, body }, { onSuccess: onDone });
        else create.mutate(body, { onSuccess: onDone });
      })}
    >
      <Stack gap="md">
        <TextInput
          label={t('serviceAreas.name')}
          required
          data-autofocus
          {...form.getInputProps('name')}
        />
        <TextInput
          label={t('serviceAreas.address')}
          autoComplete="street-address"
          {...form.getInputProps('address')}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <TextInput
            label={t('serviceAreas.city')}
            autoComplete="address-level2"
            {...form.getInputProps('city')}
          />
          <TextInput label={t('serviceAreas.phone')} type="tel" {...form.getInputProps('phone')} />
          <NumberInput
            label={t('serviceAreas.latitude')}
            min={-90}
            max={90}
            decimalScale={6}
            {...form.getInputProps('latitude')}
          />
          <NumberInput
            label={t('serviceAreas.longitude')}
            min={-180}
            max={180}
            decimalScale={6}
            {...form.getInputProps('longitude')}
          />
        </SimpleGrid>
        <Textarea
          label={t('serviceAreas.notes')}
          autosize
          minRows={2}
          {...form.getInputProps('notes')}
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

/** Branches or locations where a queue is served. */
export function ServiceAreasPanel({ queueId, canManage }: { queueId: string; canManage: boolean }) {
  const { t } = useTranslation('workspace');
  const list = useServiceAreas(queueId);
  const remove = useDeleteServiceArea(queueId);
  const [editing, setEditing] = useState<ServiceArea | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ServiceArea | null>(null);

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text c="dimmed" size="sm" style={{ flex: '1 1 200px' }}>
          {t('serviceAreas.intro')}
        </Text>
        {canManage ? (
          <Button
            leftSection={<IconPlus size={18} aria-hidden />}
            onClick={() => setEditing('new')}
          >
            {t('serviceAreas.add')}
          </Button>
        ) : null}
      </Group>
      {list.isPending ? (
        <LoadingList rows={2} />
      ) : list.isError ? (
        <LoadError error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.length === 0 ? (
        <EmptyBlock
          icon={<IconMapPin aria-hidden />}
          title={t('serviceAreas.emptyTitle')}
          body={t('serviceAreas.emptyBody')}
          order={3}
        />
      ) : (
        <Stack
          component="ul"
          gap="xs"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          aria-label={t('serviceAreas.title')}
        >
          {list.data.map((area) => (
            <ItemRow
              key={area.id}
              title={area.name}
              onEdit={canManage ? () => setEditing(area) : undefined}
              onDelete={canManage ? () => setDeleting(area) : undefined}
            >
              <Text size="sm" c="dimmed">
                {[area.address, area.city, area.phone].filter(Boolean).join(' · ') ||
                  t('serviceAreas.noAddress')}
              </Text>
              {area.notes ? <Text size="sm">{area.notes}</Text> : null}
            </ItemRow>
          ))}
        </Stack>
      )}
      <Modal
        closeButtonProps={{ 'aria-label': t('actions.closeDialog') }}
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('serviceAreas.addTitle') : t('serviceAreas.editTitle')}
      >
        {editing !== null ? (
          <ServiceAreaForm
            queueId={queueId}
            area={editing === 'new' ? null : editing}
            onDone={() => setEditing(null)}
          />
        ) : null}
      </Modal>
      {deleting ? (
        <ConfirmDialog
          opened
          title={t('serviceAreas.deleteTitle')}
          body={t('serviceAreas.deleteBody', { name: deleting.name })}
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
