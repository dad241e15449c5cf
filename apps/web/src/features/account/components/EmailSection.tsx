import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import type { User } from '@supabase/auth-js';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getAuthClient, loginRedirectUrl } from '../../../lib/auth-client.ts';
import { useAuthAction } from '../hooks/useAuthAction.ts';
import { ErrorAlert, Notice, Section } from './Section.tsx';

/** Email change (PUT /user): confirmed from the new address, and the current one (secure). */
export function EmailSection({ user }: { user: User }) {
  const { t } = useTranslation('account');
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const action = useAuthAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next = email.trim();
    const ok = await action.run(() =>
      getAuthClient().updateUser(
        { email: next },
        { emailRedirectTo: loginRedirectUrl('/admin/account') },
      ),
    );
    if (ok) {
      setSentTo(next);
      setEmail('');
    }
  };

  return (
    <Section title={t('email.title')}>
      <Text size="sm">
        {user.email ? t('email.current', { email: user.email }) : t('email.none')}
      </Text>
      {sentTo ? (
        <Notice>{t('email.sent', { email: sentTo })}</Notice>
      ) : user.new_email ? (
        <Notice>{t('email.pending', { email: user.new_email })}</Notice>
      ) : null}
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('email.new')}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
          />
          <ErrorAlert message={action.error} />
          <Group justify="flex-end">
            <Button type="submit" loading={action.busy} disabled={!email.trim()}>
              {t('email.change')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}
