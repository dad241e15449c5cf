import { Avatar, Button, Group, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { User } from '@supabase/auth-js';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getAuthClient } from '../../../lib/auth-client.ts';
import { useAuthAction } from '../hooks/useAuthAction.ts';
import { ErrorAlert, Section } from './Section.tsx';

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Display name and avatar URL, kept in user_metadata (PUT /user `data`). */
export function ProfileSection({ user }: { user: User }) {
  const { t } = useTranslation('account');
  const [displayName, setDisplayName] = useState(text(user.user_metadata.display_name));
  const [avatarUrl, setAvatarUrl] = useState(text(user.user_metadata.avatar_url));
  const action = useAuthAction();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const ok = await action.run(() =>
      getAuthClient().updateUser({
        data: { display_name: displayName.trim(), avatar_url: avatarUrl.trim() },
      }),
    );
    if (ok) notifications.show({ color: 'green', message: t('profile.saved') });
  };

  return (
    <Section title={t('profile.title')} description={t('profile.description')}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          <Group align="flex-start" wrap="nowrap" gap="lg">
            <Avatar src={avatarUrl || null} size={64} radius="xl" alt="" color="brand">
              {(displayName || user.email || '?').charAt(0).toUpperCase()}
            </Avatar>
            <Stack gap="sm" style={{ flex: 1 }}>
              <TextInput
                label={t('profile.displayName')}
                autoComplete="name"
                value={displayName}
                onChange={(event) => setDisplayName(event.currentTarget.value)}
              />
              <TextInput
                label={t('profile.avatarUrl')}
                description={t('profile.avatarHint')}
                type="url"
                autoComplete="photo"
                value={avatarUrl}
                onChange={(event) => setAvatarUrl(event.currentTarget.value)}
              />
            </Stack>
          </Group>
          <ErrorAlert message={action.error} />
          <Group justify="flex-end">
            <Button type="submit" loading={action.busy}>
              {t('save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}
