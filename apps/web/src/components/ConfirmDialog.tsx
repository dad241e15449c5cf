import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorNotice } from './StateViews.tsx';

interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  body: ReactNode;
  confirmLabel: string;
  /** Red for what cannot be undone (cancel, delete, remove). */
  danger?: boolean;
  loading?: boolean;
  error?: unknown;
  onConfirm: () => void;
  onClose: () => void;
  children?: ReactNode;
}

/** Asks before an action that changes what visitors or staff see; shows the server's refusal. */
export function ConfirmDialog({
  opened,
  title,
  body,
  confirmLabel,
  danger = false,
  loading = false,
  error,
  onConfirm,
  onClose,
  children,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      closeButtonProps={{ 'aria-label': t('confirm.close') }}
    >
      <Stack gap="md">
        {typeof body === 'string' ? <Text>{body}</Text> : body}
        {children}
        <ErrorNotice error={error} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('confirm.back')}
          </Button>
          <Button color={danger ? 'red.9' : undefined} loading={loading} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
