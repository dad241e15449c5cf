import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { User } from '@supabase/auth-js';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getAuthClient } from '../../../lib/auth-client.ts';
import { useAuthAction } from '../hooks/useAuthAction.ts';
import { ErrorAlert, Notice, Section } from './Section.tsx';

/** Phone change (PUT /user), confirmed with the code sent to the new number (phone_change). */
export function PhoneSection({ user }: { user: User }) {
  const { t } = useTranslation('account');
  const [phone, setPhone] = useState('');
  const [pending, setPending] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const action = useAuthAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next = phone.trim();
    const ok = await action.run(() => getAuthClient().updateUser({ phone: next }));
    if (ok) setPending(next);
  };

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    if (!pending) return;
    const ok = await action.run(() =>
      getAuthClient().verifyOtp({ phone: pending, token: code.trim(), type: 'phone_change' }),
    );
    if (ok) {
      setPending(null);
      setPhone('');
      setCode('');
      notifications.show({ color: 'green', message: t('phone.confirmed') });
    }
  };

  return (
    <Section title={t('phone.title')}>
      <Text size="sm">
        {user.phone ? t('phone.current', { phone: user.phone }) : t('phone.none')}
      </Text>
      {pending ? (
        <form onSubmit={(event) => void confirm(event)} noValidate>
          <Stack gap="md">
            <Notice>{t('phone.sent', { phone: pending })}</Notice>
            <TextInput
              label={t('phone.code')}
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              onChange={(event) => setCode(event.currentTarget.value.replace(/\D/g, ''))}
            />
            <ErrorAlert message={action.error} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setPending(null)}>
                {t('cancel')}
              </Button>
              <Button type="submit" loading={action.busy} disabled={!code.trim()}>
                {t('phone.confirm')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Stack gap="md">
            <TextInput
              label={t('phone.new')}
              type="tel"
              autoComplete="tel"
              value={phone}
              onChange={(event) => setPhone(event.currentTarget.value)}
            />
            <ErrorAlert message={action.error} />
            <Group justify="flex-end">
              <Button type="submit" loading={action.busy} disabled={!phone.trim()}>
                {t('phone.change')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Section>
  );
}
