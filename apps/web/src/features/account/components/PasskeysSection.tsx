import { Button, Group, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { PasskeyListItem } from '@supabase/auth-js';
import { IconFingerprintScan } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { browserSupportsWebAuthn, getAuthClient } from '../../../lib/auth-client.ts';
import { useAuthAction } from '../hooks/useAuthAction.ts';
import { ErrorAlert, Section } from './Section.tsx';

const passkeysKey = ['auth', 'passkeys'] as const;
/** GoTrue's limit on a passkey's name. */
const NAME_MAX = 120;
/** GoTrue's name for a new passkey: renamed to what the user typed, if anything. */
const SERVER_DEFAULT_NAME = 'Passkey';

type Editing = { kind: 'rename' | 'remove'; passkey: PasskeyListItem } | null;

/**
 * Passkeys: sign in without a password. Lists them (name, added, last used), adds one
 * (auth-js `registerPasskey`: the browser's create dialog), renames and removes (after a
 * confirmation). With MFA on, adding and removing need an aal2 session; the server says so.
 */
export function PasskeysSection() {
  const { t, i18n } = useTranslation('account');
  const queryClient = useQueryClient();
  const passkeys = useQuery({
    queryKey: passkeysKey,
    queryFn: async () => {
      const { data, error } = await getAuthClient().passkey.list();
      if (error) throw error;
      return data;
    },
  });
  const action = useAuthAction();
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<Editing>(null);
  const [newName, setNewName] = useState('');
  const supported = browserSupportsWebAuthn();
  const reload = () => queryClient.invalidateQueries({ queryKey: passkeysKey });

  const date = (value: string | undefined) =>
    value
      ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(value))
      : t('passkeys.never');

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const wanted = name.trim();
    const ok = await action.run(async () => {
      const auth = getAuthClient();
      const { data, error } = await auth.registerPasskey();
      if (error) return { error };
      if (wanted && wanted !== SERVER_DEFAULT_NAME) {
        const renamed = await auth.passkey.update({ passkeyId: data.id, friendlyName: wanted });
        if (renamed.error) return { error: renamed.error };
      }
      return undefined;
    });
    if (ok) {
      setName('');
      notifications.show({ color: 'green', message: t('passkeys.added') });
    }
    await reload();
  };

  const rename = async (event: FormEvent, passkey: PasskeyListItem) => {
    event.preventDefault();
    const ok = await action.run(() =>
      getAuthClient().passkey.update({ passkeyId: passkey.id, friendlyName: newName.trim() }),
    );
    if (ok) {
      setEditing(null);
      await reload();
    }
  };

  const remove = async (passkey: PasskeyListItem) => {
    const ok = await action.run(() => getAuthClient().passkey.delete({ passkeyId: passkey.id }));
    if (ok) {
      setEditing(null);
      notifications.show({ color: 'green', message: t('passkeys.removed') });
      await reload();
    }
  };

  const list = passkeys.data ?? [];
  return (
    <Section title={t('passkeys.title')} description={t('passkeys.description')}>
      {passkeys.isPending ? (
        <Skeleton h={48} radius="md" />
      ) : passkeys.isError ? (
        <ErrorAlert message={passkeys.error.message} />
      ) : list.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('passkeys.empty')}
        </Text>
      ) : (
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {list.map((passkey) => {
            const label = passkey.friendly_name || SERVER_DEFAULT_NAME;
            const mode = editing?.passkey.id === passkey.id ? editing.kind : null;
            return (
              <Stack key={passkey.id} component="li" gap="xs">
                <Group justify="space-between" wrap="wrap" gap="sm">
                  <Group gap="sm" wrap="nowrap" style={{ minWidth: 0, flex: '1 1 14rem' }}>
                    <IconFingerprintScan size={20} aria-hidden style={{ flexShrink: 0 }} />
                    <div style={{ minWidth: 0 }}>
                      <Text size="sm" fw={500} truncate>
                        {label}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {t('passkeys.dates', {
                          added: date(passkey.created_at),
                          used: date(passkey.last_used_at),
                        })}
                      </Text>
                    </div>
                  </Group>
                  <Group gap={4} wrap="nowrap">
                    <Button
                      variant="subtle"
                      size="compact-sm"
                      aria-label={t('passkeys.renameLabel', { name: label })}
                      onClick={() => {
                        action.setError(null);
                        setNewName(label);
                        setEditing({ kind: 'rename', passkey });
                      }}
                      disabled={action.busy}
                    >
                      {t('passkeys.rename')}
                    </Button>
                    <Button
                      variant="subtle"
                      color="red"
                      size="compact-sm"
                      aria-label={t('passkeys.removeLabel', { name: label })}
                      onClick={() => {
                        action.setError(null);
                        setEditing({ kind: 'remove', passkey });
                      }}
                      disabled={action.busy}
                    >
                      {t('passkeys.remove')}
                    </Button>
                  </Group>
                </Group>
                {mode === 'rename' ? (
                  <form onSubmit={(event) => void rename(event, passkey)} noValidate>
                    <Group align="flex-end" gap="sm" wrap="wrap">
                      <TextInput
                        label={t('passkeys.name')}
                        value={newName}
                        maxLength={NAME_MAX}
                        onChange={(event) => setNewName(event.currentTarget.value)}
                        style={{ flex: '1 1 12rem' }}
                        data-autofocus
                      />
                      <Group gap="xs">
                        <Button variant="default" onClick={() => setEditing(null)}>
                          {t('cancel')}
                        </Button>
                        <Button type="submit" loading={action.busy} disabled={!newName.trim()}>
                          {t('save')}
                        </Button>
                      </Group>
                    </Group>
                  </form>
                ) : mode === 'remove' ? (
                  <Group
                    justify="space-between"
                    gap="sm"
                    p="sm"
                    role="alertdialog"
                    aria-label={t('passkeys.confirmTitle')}
                    style={{
                      border: '1px solid var(--mantine-color-red-3)',
                      borderRadius: 'var(--mantine-radius-md)',
                    }}
                  >
                    <Text size="sm">{t('passkeys.confirm', { name: label })}</Text>
                    <Group gap="xs">
                      <Button variant="default" size="xs" onClick={() => setEditing(null)}>
                        {t('cancel')}
                      </Button>
                      <Button
                        color="red"
                        size="xs"
                        loading={action.busy}
                        onClick={() => void remove(passkey)}
                      >
                        {t('passkeys.confirmRemove')}
                      </Button>
                    </Group>
                  </Group>
                ) : null}
              </Stack>
            );
          })}
        </Stack>
      )}
      <ErrorAlert message={action.error} />
      {supported ? (
        <form onSubmit={(event) => void add(event)} noValidate>
          <Group align="flex-end" gap="sm" wrap="wrap">
            <TextInput
              label={t('passkeys.name')}
              description={t('passkeys.nameHint')}
              value={name}
              maxLength={NAME_MAX}
              onChange={(event) => setName(event.currentTarget.value)}
              style={{ flex: '1 1 14rem' }}
            />
            <Button
              type="submit"
              leftSection={<IconFingerprintScan size={18} aria-hidden />}
              loading={action.busy && !editing}
            >
              {t('passkeys.add')}
            </Button>
          </Group>
        </form>
      ) : (
        <Text size="sm" c="dimmed">
          {t('passkeys.unsupported')}
        </Text>
      )}
    </Section>
  );
}
