import { EmptyState, Paper } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader.tsx';

interface ScreenPlaceholderProps {
  /** Prefix in `common` holding title, description, emptyTitle and emptyBody. */
  i18nKey: string;
  icon: ReactNode;
  /** Interpolation values for the description (route parameters). */
  values?: Record<string, string>;
}

/** A screen whose content comes with later work: its heading and an honest empty state. */
export function ScreenPlaceholder({ i18nKey, icon, values }: ScreenPlaceholderProps) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader
        title={t(`${i18nKey}.title`)}
        description={t(`${i18nKey}.description`, values ?? {})}
      />
      <Paper withBorder radius="lg" py={{ base: 40, sm: 64 }} px={{ base: 'lg', sm: 48 }}>
        <EmptyState icon={icon} variant="light" size="lg">
          <EmptyState.Title order={2}>{t(`${i18nKey}.emptyTitle`)}</EmptyState.Title>
          <EmptyState.Description maw={520}>{t(`${i18nKey}.emptyBody`)}</EmptyState.Description>
        </EmptyState>
      </Paper>
    </>
  );
}
