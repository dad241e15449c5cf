import { Button, Container, Group, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconLogin2 } from '@tabler/icons-react';
import { spaRoutes } from '@upnext/contract/routes';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { authReady, getAuthClient } from '../../../lib/auth-client.ts';
import { safeRedirectPath } from '../../../lib/safe-redirect.ts';

type Outcome = { kind: 'working' } | { kind: 'failed'; message: string };

function readParams(): { query: URLSearchParams; hash: URLSearchParams } {
  return {
    query: new URLSearchParams(window.location.search),
    hash: new URLSearchParams(window.location.hash.replace(/^#/, '')),
  };
}

/**
 * Completes the return from OAuth and from email links (spec §2 `/login`). auth-js does the
 * work on page load (`detectSessionInUrl`): a PKCE `?code=` is exchanged with the verifier this
 * browser stored; an implicit `#access_token=...` (links made for the implicit flow) is taken
 * with setSession. Then on to `redirect`, when it is a path on this site.
 */
export function LoginCallback() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'working' });

  useEffect(() => {
    let live = true;
    const { query, hash } = readParams();
    const target = safeRedirectPath(query.get('redirect'));
    const fail = (message: string) => {
      if (live) setOutcome({ kind: 'failed', message });
    };
    void (async () => {
      const auth = getAuthClient();
      const init = await authReady();
      const urlError =
        query.get('error_description') ?? hash.get('error_description') ?? hash.get('error');
      if (hash.get('access_token')) {
        const accessToken = hash.get('access_token');
        const refreshToken = hash.get('refresh_token');
        if (!accessToken || !refreshToken || !hash.get('expires_in') || !hash.get('token_type')) {
          fail('No session defined in URL');
          return;
        }
        const { error } = await auth.setSession({
          access_token: accessToken,
          refresh_token: refreshToken,
        });
        window.history.replaceState(window.history.state, '', window.location.pathname);
        if (error) {
          fail(error.message);
          return;
        }
      } else if (init.error || urlError) {
        fail(init.error?.message ?? urlError ?? '');
        return;
      }
      const { data } = await auth.getSession();
      if (!live) return;
      if (data.session) {
        void navigate(target, { replace: true });
      } else if (query.get('code')) {
        fail(t('login.otherBrowser'));
      } else {
        fail(t('login.nothing'));
      }
    })();
    return () => {
      live = false;
    };
  }, [navigate, t]);

  if (outcome.kind === 'working') {
    return (
      <Container size="sm" py={{ base: 56, sm: 96 }} ta="center">
        <Stack align="center" gap="md">
          <ThemeIcon size={72} radius="xl" color="brand" variant="light">
            <IconLogin2 size={38} aria-hidden />
          </ThemeIcon>
          <Title order={1}>{t('login.title')}</Title>
          <Group gap="sm" role="status">
            <Loader size="sm" aria-hidden />
            <Text c="dimmed">{t('login.working')}</Text>
          </Group>
        </Stack>
      </Container>
    );
  }
  return (
    <Container size="sm" py={{ base: 56, sm: 96 }} ta="center">
      <Stack align="center" gap="md">
        <ThemeIcon size={72} radius="xl" color="red" variant="light">
          <IconAlertTriangle size={38} aria-hidden />
        </ThemeIcon>
        <Title order={1}>{t('login.failedTitle')}</Title>
        <Text size="lg" role="alert">
          {outcome.message}
        </Text>
        <Group justify="center" mt="md">
          <Button
            component={Link}
            to={`${spaRoutes.home}?redirect=${encodeURIComponent('/admin')}`}
          >
            {t('login.tryAgain')}
          </Button>
          <Button component={Link} to={spaRoutes.home} variant="default">
            {t('login.backHome')}
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}
