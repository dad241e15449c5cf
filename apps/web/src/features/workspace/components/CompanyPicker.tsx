import { Select } from '@mantine/core';
import { IconBuilding } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Membership } from '../hooks/useActiveCompany.ts';

interface CompanyPickerProps {
  companies: Membership[];
  activeId: string;
  onSelect: (companyId: string) => void;
}

/** Shown only to users of several companies; the choice is remembered on this device. */
export function CompanyPicker({ companies, activeId, onSelect }: CompanyPickerProps) {
  const { t } = useTranslation('workspace');
  if (companies.length < 2) return null;
  return (
    <Select
      label={t('picker.label')}
      data={companies.map((c) => ({
        value: c.companyId,
        label: `${c.name} · ${t(`roles.${c.role}`)}`,
      }))}
      value={activeId}
      onChange={(value) => {
        if (value) onSelect(value);
      }}
      allowDeselect={false}
      leftSection={<IconBuilding size={18} aria-hidden />}
      w={{ base: '100%', xs: 320 }}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
