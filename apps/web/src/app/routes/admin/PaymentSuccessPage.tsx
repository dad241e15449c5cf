import { Button, Container, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { spaRoutes } from '@upnext/contract/routes';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/**
 * Where the checkout sends a company back after paying its plan. Not guarded (spec §2): the
 * visitor may return in a browser without a session. The outcome itself arrives by webhook.
 */
export function Component() {
  const { t } = useTranslation();
  return (
    <Container size="sm" py={{ base: 56, sm: 96 }} ta="center">
      <ThemeIcon size={72} radius="xl" color="brand" variant="light" mx="auto" mb="lg">
        <IconCircleCheck size={40} aria-hidden />
      </ThemeIcon>
      <Title order={1} mb="sm">
        {t('admin.paymentSuccess.title')}
      </Title>
      <Text c="dimmed" size="lg" mb="xl">
        {t('admin.paymentSuccess.body')}
      </Text>
      <Button component={Link} to={spaRoutes.admin} size="md">
        {t('admin.paymentSuccess.toDashboard')}
      </Button>
    </Container>
  );
}
