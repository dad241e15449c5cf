import { Button, Container, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLogin2 } from '@tabler/icons-react';
import { spaRoutes } from '@upnext/contract/routes';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The OAuth callback (spec §2). The auth work completes the sign-in here. */
export function Component() {
  const { t } = useTranslation();
  return (
    <Container size="sm" py={{ base: 56, sm: 96 }} ta="center">
      <ThemeIcon size={72} radius="xl" color="brand" variant="light" mx="auto" mb="lg">
        <IconLogin2 size={38} aria-hidden />
      </ThemeIcon>
      <Title order={1} mb="sm">
        {t('login.title')}
      </Title>
      <Text c="dimmed" size="lg" mb="xl">
        {t('login.body')}
      </Text>
      <Button component={Link} to={spaRoutes.home} variant="default" size="md">
        {t('login.backHome')}
      </Button>
    </Container>
  );
}
