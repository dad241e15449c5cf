import { Box, Button, Container, Group, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { spaRoutes } from '@upnext/contract/routes';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useRouteError } from 'react-router';
import { reportError } from '../../lib/error-reporter.ts';
import { MAIN_CONTENT_ID } from './SkipLink.tsx';

/** What a route shows when its code fails to load or it throws while rendering. */
export function RouteErrorBoundary() {
  const { t } = useTranslation();
  const error = useRouteError();

  useEffect(() => {
    reportError(error, { source: 'route' });
  }, [error]);

  return (
    <Container size="sm" py={80}>
      <ThemeIcon size={56} radius="xl" color="red" variant="light" mb="lg">
        <IconAlertTriangle size={30} aria-hidden />
      </ThemeIcon>
      <Title order={1} mb="sm">
        {t('errors.pageTitle')}
      </Title>
      <Text c="dimmed" size="lg" mb="xl">
        {t('errors.pageBody')}
      </Text>
      <Group>
        {/* A full reload also recovers from a stale chunk after a new release. */}
        <Button
          leftSection={<IconRefresh size={18} aria-hidden />}
          onClick={() => window.location.reload()}
        >
          {t('errors.tryAgain')}
        </Button>
        <Button component={Link} to={spaRoutes.home} variant="default">
          {t('errors.goHome')}
        </Button>
      </Group>
    </Container>
  );
}

/** The last resort, when a layout itself fails: it brings its own <main>. */
export function RootErrorBoundary() {
  return (
    <Box component="main" id={MAIN_CONTENT_ID} tabIndex={-1}>
      <RouteErrorBoundary />
    </Box>
  );
}
