import { NumberInput, SimpleGrid, Textarea, TextInput } from '@mantine/core';
import { IconMapPin } from '@tabler/icons-react';
import type { ServiceArea } from '@upnext/contract/queues';
import { useTranslation } from 'react-i18next';
import { serviceAreasApi } from '../api/queueChildren.ts';
import { phoneBody, phoneError } from './formErrors.ts';
import * as QueueChild from './QueueChild.tsx';

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

/** `country` is the company's: a national phone is read in it and sent in E.164. */
function toBody(values: Values, country: string) {
  return {
    name: values.name.trim(),
    address: values.address.trim(),
    city: values.city.trim(),
    latitude: coordinate(values.latitude),
    longitude: coordinate(values.longitude),
    phone: phoneBody(values.phone, country),
    notes: values.notes.trim(),
  };
}

function ServiceAreaForm({
  country,
  ...props
}: QueueChild.FormProps<ServiceArea> & { country: string }) {
  const { t } = useTranslation('workspace');
  const area = props.item;
  const body = (values: Values) => toBody(values, country);
  const initial: Values = {
    name: area?.name ?? '',
    address: area?.address ?? '',
    city: area?.city ?? '',
    latitude: area?.latitude ?? '',
    longitude: area?.longitude ?? '',
    phone: area?.phone ?? '',
    notes: area?.notes ?? '',
  };
  const check = (values: Values): Record<string, string> => {
    const phone = phoneError(values.phone, country);
    return phone ? { phone } : {};
  };
  const form = QueueChild.useForm(serviceAreasApi, initial, body, undefined, check);
  return (
    <QueueChild.Form {...props} api={serviceAreasApi} form={form} toBody={body}>
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
    </QueueChild.Form>
  );
}

/** Branches or locations where a queue is served; `country` is the company's (phones). */
export function ServiceAreasPanel({
  country,
  ...props
}: QueueChild.PanelProps & { country: string }) {
  const { t } = useTranslation('workspace');
  const place = (area: ServiceArea) =>
    [area.address, area.city, area.phone].filter(Boolean).join(' · ') ||
    t('serviceAreas.noAddress');
  return (
    <QueueChild.Panel
      {...props}
      api={serviceAreasApi}
      emptyIcon={<IconMapPin aria-hidden />}
      details={(area) => ({ line: place(area), note: area.notes })}
      form={(form) => <ServiceAreaForm {...form} country={country} />}
    />
  );
}
