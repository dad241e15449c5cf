import { NumberInput, SimpleGrid, Switch, Textarea } from '@mantine/core';
import { IconStethoscope } from '@tabler/icons-react';
import type { ServiceType } from '@upnext/contract/queues';
import { useTranslation } from 'react-i18next';
import { Tag } from '../../../components/tones.tsx';
import { formatMoney } from '../../../entities/payment/format.ts';
import { serviceTypesApi } from '../api/queueChildren.ts';
import { fromMinor, toMinor } from './options.ts';
import * as QueueChild from './QueueChild.tsx';

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
  currency,
  ...props
}: QueueChild.FormProps<ServiceType> & { currency: string }) {
  const { t } = useTranslation('workspace');
  const type = props.item;
  const initial: Values = {
    name: type?.name ?? '',
    description: type?.description ?? '',
    durationMinutes: type?.durationMinutes ?? 15,
    price: type ? fromMinor(type.priceMinor) : '',
    active: type?.active ?? true,
  };
  const form = QueueChild.useForm(serviceTypesApi, initial, toBody, { priceMinor: 'price' });
  return (
    <QueueChild.Form {...props} api={serviceTypesApi} form={form} toBody={toBody}>
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
    </QueueChild.Form>
  );
}

/** What a queue offers (consultation, renewal...), with duration and price. */
export function ServiceTypesPanel({
  currency,
  ...props
}: QueueChild.PanelProps & { currency: string }) {
  const { t, i18n } = useTranslation('workspace');
  const minutes = (type: ServiceType) => t('serviceTypes.minutes', { count: type.durationMinutes });
  const price = (type: ServiceType) =>
    type.priceMinor === null
      ? t('serviceTypes.free')
      : formatMoney(type.priceMinor, currency, i18n.language);
  return (
    <QueueChild.Panel
      {...props}
      api={serviceTypesApi}
      emptyIcon={<IconStethoscope aria-hidden />}
      badges={(type) => (type.active ? null : <Tag tone="gray">{t('serviceTypes.inactive')}</Tag>)}
      details={(type) => ({ line: `${minutes(type)} · ${price(type)}`, note: type.description })}
      form={(form) => <ServiceTypeForm {...form} currency={currency} />}
    />
  );
}
