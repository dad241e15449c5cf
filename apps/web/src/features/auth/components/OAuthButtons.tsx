import { Button, Divider, Stack } from '@mantine/core';
import { IconBrandGithub, IconBrandGoogle, IconKey } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { enabledOAuthProviders, providerLabel } from '../../../lib/auth-client.ts';
import { useAuthSettings } from '../hooks/useAuthSettings.ts';

function ProviderIcon({ provider }: { provider: string }) {
  if (provider === 'google') return <IconBrandGoogle size={18} aria-hidden />;
  if (provider === 'github') return <IconBrandGithub size={18} aria-hidden />;
  return <IconKey size={18} aria-hidden />;
}

interface OAuthButtonsProps {
  disabled: boolean;
  onSelect: (provider: string) => void;
}

/** One button per provider GET /settings reports enabled; nothing when there is none. */
export function OAuthButtons({ disabled, onSelect }: OAuthButtonsProps) {
  const { t } = useTranslation('auth');
  const settings = useAuthSettings();
  const providers = enabledOAuthProviders(settings.data);
  if (providers.length === 0) return null;
  return (
    <Stack gap="xs">
      {providers.map((provider) => (
        <Button
          key={provider}
          variant="default"
          leftSection={<ProviderIcon provider={provider} />}
          disabled={disabled}
          onClick={() => onSelect(provider)}
          fullWidth
        >
          {t('actions.continueWith', { provider: providerLabel(provider, settings.data) })}
        </Button>
      ))}
      <Divider label={t('messages.or')} labelPosition="center" my="xs" />
    </Stack>
  );
}
