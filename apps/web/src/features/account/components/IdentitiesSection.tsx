import { Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { Provider, User, UserIdentity } from '@supabase/auth-js';
import { useTranslation } from 'react-i18next';
import {
  enabledOAuthProviders,
  getAuthClient,
  loginRedirectUrl,
  providerLabel,
} from '../../../lib/auth-client.ts';
import { useAuthSettingsQuery, useRefreshUser } from '../hooks/useAccountUser.ts';
import { useAuthAction } from '../hooks/useAuthAction.ts';
import { ErrorAlert, Section } from './Section.tsx';

/**
 * Linked identities: list; link another configured OAuth provider (linkIdentity, returns
 * through /login); unlink, except the last one (the server refuses it too).
 */
export function IdentitiesSection({ user }: { user: User }) {
  const { t, i18n } = useTranslation('account');
  const settings = useAuthSettingsQuery();
  const refresh = useRefreshUser();
  const action = useAuthAction();
  const identities = user.identities ?? [];
  const linked = new Set(identities.map((identity) => identity.provider));
  const linkable = enabledOAuthProviders(settings.data).filter((p) => !linked.has(p));
  const last = identities.length <= 1;

  const name = (provider: string) =>
    i18n.exists(`account:identities.providers.${provider}`)
      ? t(`identities.providers.${provider}`)
      : providerLabel(provider, settings.data);

  const link = (provider: string) =>
    void action.run(() =>
      getAuthClient().linkIdentity({
        provider: provider as Provider,
        options: { redirectTo: loginRedirectUrl('/admin/account') },
      }),
    );

  const unlink = async (identity: UserIdentity) => {
    const ok = await action.run(() => getAuthClient().unlinkIdentity(identity));
    if (ok) {
      notifications.show({ color: 'green', message: t('identities.unlinked') });
      await refresh();
    }
  };

  const date = (value: string | undefined) =>
    value
      ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(value))
      : '';

  return (
    <Section title={t('identities.title')} description={t('identities.description')}>
      {identities.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('identities.empty')}
        </Text>
      ) : (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {identities.map((identity) => (
            <Group
              key={identity.identity_id}
              component="li"
              justify="space-between"
              wrap="nowrap"
              gap="sm"
            >
              <div style={{ minWidth: 0 }}>
                <Text size="sm" fw={500} truncate>
                  {name(identity.provider)}
                </Text>
                <Text size="xs" c="dimmed" truncate>
                  {[
                    typeof identity.identity_data?.email === 'string'
                      ? identity.identity_data.email
                      : null,
                    identity.created_at
                      ? t('identities.since', { date: date(identity.created_at) })
                      : null,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </Text>
              </div>
              <Button
                variant="subtle"
                color="red"
                size="compact-sm"
                style={{ flexShrink: 0 }}
                disabled={last || action.busy}
                title={last ? t('identities.lastOne') : undefined}
                aria-label={t('identities.unlinkLabel', { provider: name(identity.provider) })}
                onClick={() => void unlink(identity)}
              >
                {t('identities.unlink')}
              </Button>
            </Group>
          ))}
        </Stack>
      )}
      {last && identities.length === 1 ? (
        <Text size="xs" c="dimmed">
          {t('identities.lastOne')}
        </Text>
      ) : null}
      <ErrorAlert message={action.error} />
      {linkable.length > 0 ? (
        <Group gap="sm">
          {linkable.map((provider) => (
            <Button key={provider} variant="default" onClick={() => link(provider)}>
              {t('identities.link', { provider: name(provider) })}
            </Button>
          ))}
        </Group>
      ) : null}
    </Section>
  );
}
