import { Box, Container, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './CtaBanner.module.css';

interface CtaBannerProps {
  id: string;
  title: string;
  description: string;
  /** The call-to-action buttons. */
  children: ReactNode;
}

/** The closing call to action of a page: a bold band with a heading and buttons. */
export function CtaBanner({ id, title, description, children }: CtaBannerProps) {
  return (
    <Box component="section" aria-labelledby={`${id}-title`} className={classes.section}>
      <Container>
        <Box className={classes.panel}>
          <Stack gap="md" align="center" ta="center" maw={680} mx="auto">
            <Title order={2} id={`${id}-title`} className={classes.title}>
              {title}
            </Title>
            <Text size="lg" className={classes.text}>
              {description}
            </Text>
            <Group justify="center" gap="sm" mt="sm" className={classes.actions}>
              {children}
            </Group>
          </Stack>
        </Box>
      </Container>
    </Box>
  );
}
