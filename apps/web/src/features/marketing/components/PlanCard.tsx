import {
  Badge,
  Box,
  Button,
  Group,
  List,
  Paper,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import type { Plan } from '@upnext/contract/plans';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import classes from './PlanCard.module.css';
import { formatPrice, planHighlights } from './pricing.ts';

/** Where each plan's button goes: companies start in their settings (sign-in first). */
const planTargets = {
  free: { to: '/admin/company' },
  pro: { to: '/admin/company' },
  business: { href: 'mailto:sales@upnext.app' },
} as const;

export function PlanCard({ plan }: { plan: Plan }) {
  const { t, i18n } = useTranslation('marketing');
  const headingId = `plan-${plan.id}-title`;
  const target = planTargets[plan.id];
  const ctaLabel = t(`pricing.plans.${plan.id}.cta`);
  const variant = plan.highlighted ? 'filled' : 'default';

  return (
    <Paper
      component="article"
      aria-labelledby={headingId}
      withBorder
      radius="lg"
      p="xl"
      className={classes.card}
      data-highlighted={plan.highlighted || undefined}
    >
      <Stack gap="lg" h="100%">
        <Stack gap="xs">
          <Group justify="space-between" align="center" gap="xs">
            <Title order={2} id={headingId} className={classes.name}>
              {t(`pricing.plans.${plan.id}.name`)}
            </Title>
            {plan.highlighted && (
              <Badge variant="filled" radius="sm">
                {t('pricing.mostPopular')}
              </Badge>
            )}
          </Group>
          <Text c="dimmed" className={classes.tagline}>
            {t(`pricing.plans.${plan.id}.tagline`)}
          </Text>
        </Stack>

        <Box>
          <Group gap={6} align="baseline">
            <Text component="span" className={classes.price}>
              {formatPrice(plan.monthlyPrice, i18n.language)}
            </Text>
            <Text component="span" c="dimmed" fw={500}>
              {t('pricing.perMonth')}
            </Text>
          </Group>
          <Text size="sm" c="dimmed">
            {t('pricing.priceNote')}
          </Text>
        </Box>

        {'to' in target ? (
          <Button component={Link} to={target.to} variant={variant} size="md" fullWidth>
            {ctaLabel}
          </Button>
        ) : (
          <Button component="a" href={target.href} variant={variant} size="md" fullWidth>
            {ctaLabel}
          </Button>
        )}

        <Box>
          <Text fw={700} size="sm" mb="sm">
            {t('pricing.includes')}
          </Text>
          <List
            spacing="sm"
            size="sm"
            center
            className={classes.list}
            classNames={{ itemLabel: classes.listLabel }}
          >
            {planHighlights(plan, t).map((item) => (
              <List.Item
                key={item.key}
                icon={
                  <ThemeIcon
                    size={22}
                    radius="xl"
                    variant={item.included ? 'light' : 'transparent'}
                    color={item.included ? undefined : 'gray'}
                    aria-hidden="true"
                  >
                    {item.included ? <IconCheck size={14} stroke={2.5} /> : <IconX size={14} />}
                  </ThemeIcon>
                }
                c={item.included ? undefined : 'dimmed'}
              >
                {item.label}
              </List.Item>
            ))}
          </List>
        </Box>
      </Stack>
    </Paper>
  );
}
