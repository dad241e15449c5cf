import { Paper, Stack, Text, ThemeIcon, Title, type TitleOrder } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import classes from './FeatureCard.module.css';

interface FeatureCardProps {
  icon: Icon;
  title: string;
  text: string;
  headingOrder?: TitleOrder;
  /** Drop the card's border and padding (for dense grids inside a tinted section). */
  plain?: boolean;
  children?: ReactNode;
}

/** An icon, a heading and a short text: the unit of every feature grid. */
export function FeatureCard({
  icon: IconComponent,
  title,
  text,
  headingOrder = 3,
  plain = false,
  children,
}: FeatureCardProps) {
  const body = (
    <Stack gap="sm" h="100%">
      <ThemeIcon variant="light" size={48} radius="md" aria-hidden="true">
        <IconComponent size={26} stroke={1.6} aria-hidden="true" />
      </ThemeIcon>
      <Title order={headingOrder} className={classes.title}>
        {title}
      </Title>
      <Text c="dimmed" className={classes.text}>
        {text}
      </Text>
      {children}
    </Stack>
  );
  if (plain) return body;
  return (
    <Paper withBorder radius="lg" p="xl" className={classes.card}>
      {body}
    </Paper>
  );
}
