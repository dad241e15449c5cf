import { Button, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  clearPasswordRecovery,
  getAuthClient,
  usePasswordRecovery,
} from '../../../lib/auth-client.ts';
import { AuthErrorAlert } from './AuthErrorAlert.tsx';

/**
 * Opens when auth-js reports PASSWORD_RECOVERY (the reset link was opened) or an invitation's
 * link signed the invitee in: they choose a (new) password with PUT /user.
 */
export function SetNewPasswordDialog() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const prompt = usePasswordRecovery();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password !== repeat) {
      setError(t('messages.passwordsDiffer'));
      return;
    }
    setBusy(true);
    setError(null);
    void getAuthClient()
      .updateUser({ password })
      .then(({ error: authError }) => {
        setBusy(false);
        if (authError) {
          setError(authError.message);
          return;
        }
        clearPasswordRecovery();
        notifications.show({ color: 'green', message: t('messages.passwordSaved') });
        void navigate('/admin');
      });
  };

  return (
    <Modal
      opened={prompt !== null}
      onClose={clearPasswordRecovery}
      title={t(prompt === 'invite' ? 'recovery.inviteTitle' : 'recovery.title')}
      closeButtonProps={{ 'aria-label': t('dialog.close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text size="sm">{t(prompt === 'invite' ? 'recovery.inviteBody' : 'recovery.body')}</Text>
          <PasswordInput
            label={t('fields.newPassword')}
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            data-autofocus
          />
          <PasswordInput
            label={t('fields.confirmPassword')}
            autoComplete="new-password"
            value={repeat}
            onChange={(event) => setRepeat(event.currentTarget.value)}
          />
          <AuthErrorAlert message={error} />
          <Button type="submit" loading={busy} fullWidth>
            {t('actions.savePassword')}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
