import {
  Alert,
  Box,
  Button,
  Container,
  Group,
  Paper,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconArrowRight, IconCircleCheck, IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { RichText } from '../components/RichText.tsx';
import { usePageTitle } from '../components/usePageTitle.ts';
import classes from './StatusPage.module.css';

interface Step {
  title: string;
  text: string;
}

/**
 * Where the payment provider's checkout sends a visitor back. The page has no payment data:
 * the outcome arrives by the provider's signed webhook, so it claims no amount and no status
 * beyond "submitted", and points to My sessions, where the confirmed place appears.
 */
export function Component() {
  const { t } = useTranslation('marketing');
  usePageTitle(t('paymentSuccess.meta.title'));
  const steps = t('paymentSuccess.steps', { returnObjects: true }) as unknown as Step[];

  return (
    <Container size="sm" className={classes.root}>
      <Stack gap="xl">
        <Stack gap="md" align="center" ta="center">
          <ThemeIcon size={72} radius="xl" variant="light" aria-hidden="true">
            <IconCircleCheck size={42} stroke={1.6} aria-hidden="true" />
          </ThemeIcon>
          <Title order={1} className={classes.title}>
            {t('paymentSuccess.title')}
          </Title>
          <Text size="lg" c="dimmed" className={classes.lead}>
            {t('paymentSuccess.lead')}
          </Text>
        </Stack>

        <Paper
          component="section"
          aria-labelledby="next-title"
          withBorder
          radius="lg"
          p={{ base: 'lg', sm: 'xl' }}
        >
          <Title order={2} id="next-title" className={classes.subtitle} mb="lg">
            {t('paymentSuccess.nextTitle')}
          </Title>
          <Box component="ol" className={classes.steps}>
            {steps.map((step, index) => (
              <li key={step.title} className={classes.step}>
                <span className={classes.stepNumber} aria-hidden="true">
                  {index + 1}
                </span>
                <div>
                  <Text fw={700}>{step.title}</Text>
                  <Text c="dimmed" size="sm" className={classes.stepText}>
                    {step.text}
                  </Text>
                </div>
              </li>
            ))}
          </Box>
        </Paper>

        <Alert
          variant="light"
          radius="lg"
          icon={<IconInfoCircle aria-hidden="true" />}
          title={t('paymentSuccess.noteTitle')}
        >
          <Text size="sm" className={classes.stepText}>
            <RichText text={t('paymentSuccess.note')} />
          </Text>
        </Alert>

        <Group justify="center" gap="sm" className={classes.actions}>
          <Button
            component={Link}
            to="/admin/my-sessions"
            size="md"
            rightSection={<IconArrowRight size={18} aria-hidden="true" />}
          >
            {t('paymentSuccess.primary')}
          </Button>
          <Button component={Link} to="/" size="md" variant="default">
            {t('paymentSuccess.secondary')}
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}
