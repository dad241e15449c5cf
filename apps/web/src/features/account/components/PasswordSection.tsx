import { Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { isAuthApiError } from '@supabase/auth-js';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getAuthClient } from '../../../lib/auth-client.ts';
import { useAuthAction } from '../hooks/useAuthAction.ts';
import { ErrorAlert, Notice, Section } from './Section.tsx';

/**
 * Password change (PUT /user). When the server answers `reauthentication_needed` (an old
 * session), a nonce is sent with GET /reauthenticate and asked for before trying again.
 */
export function PasswordSection() {
  const { t } = useTranslation('account');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [nonceNeeded, setNonceNeeded] = useState(false);
  const [nonce, setNonce] = useState('');
  const action = useAuthAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password !== repeat) {
      action.setError(t('password.differ'));
      return;
    }
    let askNonce = false;
    const ok = await action.run(async () => {
      const auth = getAuthClient();
      const result = await auth.updateUser(
        nonceNeeded ? { password, nonce: nonce.trim() } : { password },
      );
      if (isAuthApiError(result.error) && result.error.code === 'reauthentication_needed') {
        askNonce = true;
        return auth.reauthenticate();
      }
      return result;
    });
    if (ok && askNonce) {
      setNonceNeeded(true);
      return;
    }
    if (ok) {
      setPassword('');
      setRepeat('');
      setNonce('');
      setNonceNeeded(false);
      notifications.show({ color: 'green', message: t('password.saved') });
    }
  };

  return (
    <Section title={t('password.title')}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          <PasswordInput
            label={t('password.new')}
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
          />
          <PasswordInput
            label={t('password.repeat')}
            autoComplete="new-password"
            value={repeat}
            onChange={(event) => setRepeat(event.currentTarget.value)}
          />
          {nonceNeeded ? (
            <>
              <Notice>{t('password.nonceSent')}</Notice>
              <TextInput
                label={t('password.nonce')}
                inputMode="numeric"
                autoComplete="one-time-code"
                value={nonce}
                onChange={(event) => setNonce(event.currentTarget.value.replace(/\D/g, ''))}
              />
            </>
          ) : null}
          <ErrorAlert message={action.error} />
          <Group justify="flex-end">
            <Button type="submit" loading={action.busy} disabled={!password}>
              {t('password.change')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}
