import { Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

interface PageHeaderProps {
  title: ReactNode;
  description?: ReactNode;
}

/** The one h1 of a screen and its lead sentence. */
export function PageHeader({ title, description }: PageHeaderProps) {
  return (
    <Stack gap={6} mb="xl">
      <Title order={1}>{title}</Title>
      {description ? (
        <Text c="dimmed" size="lg">
          {description}
        </Text>
      ) : null}
    </Stack>
  );
}
