import { Button, Code, Container, Group, List, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconHome, IconMail, IconMapSearch, IconTicket } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { usePageTitle } from '../components/usePageTitle.ts';
import classes from './StatusPage.module.css';

export function Component() {
  const { t } = useTranslation('marketing');
  usePageTitle(t('notFound.meta.title'));
  const { pathname } = useLocation();
  const reasons = t('notFound.reasons', { returnObjects: true }) as unknown as string[];

  return (
    <Container size="sm" className={classes.root}>
      <Stack gap="xl">
        <Stack gap="md" align="center" ta="center">
          <ThemeIcon size={72} radius="xl" variant="light" aria-hidden="true">
            <IconMapSearch size={40} stroke={1.6} aria-hidden="true" />
          </ThemeIcon>
          <Text fw={700} size="sm" tt="uppercase" className={classes.code}>
            {t('notFound.code')}
          </Text>
          <Title order={1} className={classes.title}>
            {t('notFound.title')}
          </Title>
          <Text size="lg" c="dimmed" className={classes.lead}>
            {t('notFound.lead')}
          </Text>
          <Text size="sm" c="dimmed" className={classes.path}>
            {t('notFound.requested')} <Code>{pathname}</Code>
          </Text>
        </Stack>

        <Stack gap="sm" component="section" aria-labelledby="reasons-title">
          <Title order={2} id="reasons-title" className={classes.subtitle}>
            {t('notFound.reasonsTitle')}
          </Title>
          <List spacing="sm" className={classes.stepText}>
            {reasons.map((reason) => (
              <List.Item key={reason}>{reason}</List.Item>
            ))}
          </List>
        </Stack>

        <Stack gap="md" component="section" aria-labelledby="next-steps-title">
          <Title order={2} id="next-steps-title" className={classes.subtitle}>
            {t('notFound.linksTitle')}
          </Title>
          <Group gap="sm" className={classes.actions}>
            <Button component={Link} to="/" leftSection={<IconHome size={18} aria-hidden="true" />}>
              {t('notFound.home')}
            </Button>
            <Button
              component={Link}
              to="/join"
              variant="default"
              leftSection={<IconTicket size={18} aria-hidden="true" />}
            >
              {t('notFound.join')}
            </Button>
            <Button
              component={Link}
              to="/aboutus#contact"
              variant="default"
              leftSection={<IconMail size={18} aria-hidden="true" />}
            >
              {t('notFound.contact')}
            </Button>
          </Group>
        </Stack>
      </Stack>
    </Container>
  );
}
