import { Box, Container, type MantineSize, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './Section.module.css';

interface SectionProps {
  /** Id of the section's heading, used for `aria-labelledby` and in-page links. */
  id: string;
  children: ReactNode;
  /** A tinted band, to separate consecutive sections. */
  tinted?: boolean;
  size?: MantineSize;
}

/** A full-width band with a centred container: the rhythm of every marketing page. */
export function Section({ id, children, tinted = false, size = 'lg' }: SectionProps) {
  return (
    <Box
      component="section"
      id={id}
      aria-labelledby={`${id}-title`}
      className={classes.section}
      data-tinted={tinted || undefined}
    >
      <Container size={size}>{children}</Container>
    </Box>
  );
}

interface SectionHeadingProps {
  /** Section id: the heading gets `${id}-title`. */
  id: string;
  eyebrow?: string;
  title: string;
  description?: string;
  align?: 'left' | 'center';
}

/** An h2 with an optional eyebrow above and a lead paragraph below. */
export function SectionHeading({
  id,
  eyebrow,
  title,
  description,
  align = 'left',
}: SectionHeadingProps) {
  const centred = align === 'center';
  return (
    <Stack
      gap="sm"
      mb={{ base: 'xl', md: 48 }}
      maw={centred ? 720 : 760}
      mx={centred ? 'auto' : undefined}
      ta={align}
    >
      {eyebrow && <Text className={classes.eyebrow}>{eyebrow}</Text>}
      <Title order={2} id={`${id}-title`} className={classes.title}>
        {title}
      </Title>
      {description && (
        <Text size="lg" c="dimmed" className={classes.description}>
          {description}
        </Text>
      )}
    </Stack>
  );
}
