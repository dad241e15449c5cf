import { Alert, Button, Group, Modal, Text } from '@mantine/core';
import { IconLogin2 } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

interface SignInDialogProps {
  opened: boolean;
  onClose: () => void;
  /** The guarded page the visitor was sent away from (`/?redirect=...`), if any. */
  redirectTo?: string | null;
}

/** Placeholder until accounts exist: the auth work replaces the body with the real forms. */
export function SignInDialog({ opened, onClose, redirectTo }: SignInDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('signIn.title')}>
      {redirectTo ? (
        <Alert color="brand" variant="light" mb="md" icon={<IconLogin2 aria-hidden />}>
          {t('signIn.continueNotice')}
        </Alert>
      ) : null}
      <Text>{t('signIn.comingSoon')}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onClose}>
          {t('signIn.close')}
        </Button>
      </Group>
    </Modal>
  );
}
