import { Button, Group, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  type Company,
  type CreateCompanyBody,
  createCompanyBodySchema,
} from '@upnext/contract/companies';
import { DEFAULT_COUNTRY } from '@upnext/contract/phone';
import { useTranslation } from 'react-i18next';
import { contractErrors, phoneBody, phoneError } from './formErrors.ts';
import { browserTimeZone, currencyOptions, timeZoneOptions } from './options.ts';

export interface CompanyFormValues {
  name: string;
  timezone: string;
  currency: string;
  contactEmail: string;
  contactPhone: string;
  logoUrl: string;
}

/** `country` reads the contact phone (the company's; new companies have none yet). */
function toBody(values: CompanyFormValues, full: boolean, country: string): CreateCompanyBody {
  const body: CreateCompanyBody = {
    name: values.name.trim(),
    timezone: values.timezone,
    currency: values.currency,
  };
  if (!full) return body;
  return {
    ...body,
    contactEmail: values.contactEmail.trim() || null,
    contactPhone: phoneBody(values.contactPhone, country),
    logoUrl: values.logoUrl.trim() || null,
  };
}

interface CompanyFormProps {
  /** Settings of an existing company; without it the form creates one (name, zone, currency). */
  company?: Company;
  submitLabel: string;
  loading?: boolean;
  readOnly?: boolean;
  onSubmit: (body: CreateCompanyBody) => void;
}

export function CompanyForm({
  company,
  submitLabel,
  loading,
  readOnly,
  onSubmit,
}: CompanyFormProps) {
  const { t } = useTranslation('workspace');
  const full = Boolean(company);
  const country = company?.country ?? DEFAULT_COUNTRY;
  const form = useForm<CompanyFormValues>({
    mode: 'controlled',
    initialValues: {
      name: company?.name ?? '',
      timezone: company?.timezone ?? browserTimeZone(),
      currency: company?.currency ?? 'EUR',
      contactEmail: company?.contactEmail ?? '',
      contactPhone: company?.contactPhone ?? '',
      logoUrl: company?.logoUrl ?? '',
    },
    validate: (values) => {
      const errors = contractErrors(createCompanyBodySchema, toBody(values, full, country));
      const phone = full ? phoneError(values.contactPhone, country) : null;
      return phone ? { ...errors, contactPhone: phone } : errors;
    },
  });

  return (
    <form onSubmit={form.onSubmit((values) => onSubmit(toBody(values, full, country)))} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('company.fields.name')}
          required
          readOnly={readOnly}
          autoComplete="organization"
          {...form.getInputProps('name')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label={t('company.fields.timezone')}
            description={t('company.fields.timezoneHint')}
            required
            searchable
            readOnly={readOnly}
            data={timeZoneOptions()}
            limit={50}
            allowDeselect={false}
            {...form.getInputProps('timezone')}
          />
          <Select
            label={t('company.fields.currency')}
            description={t('company.fields.currencyHint')}
            required
            searchable
            readOnly={readOnly}
            data={currencyOptions()}
            allowDeselect={false}
            {...form.getInputProps('currency')}
          />
        </SimpleGrid>
        {full ? (
          <>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label={t('company.fields.contactEmail')}
                type="email"
                autoComplete="email"
                readOnly={readOnly}
                {...form.getInputProps('contactEmail')}
              />
              <TextInput
                label={t('company.fields.contactPhone')}
                type="tel"
                autoComplete="tel"
                readOnly={readOnly}
                {...form.getInputProps('contactPhone')}
              />
            </SimpleGrid>
            <TextInput
              label={t('company.fields.logoUrl')}
              description={t('company.fields.logoUrlHint')}
              type="url"
              readOnly={readOnly}
              {...form.getInputProps('logoUrl')}
            />
          </>
        ) : null}
        {readOnly ? null : (
          <Group justify="flex-end">
            <Button type="submit" loading={loading}>
              {submitLabel}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
