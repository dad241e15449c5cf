import { Box, Container, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './PageIntro.module.css';

interface PageIntroProps {
  eyebrow?: string;
  title: string;
  lead?: ReactNode;
  /** Buttons or other content under the lead. */
  children?: ReactNode;
}

/** The top band of an inner page: the page's only h1, with an eyebrow and a lead. */
export function PageIntro({ eyebrow, title, lead, children }: PageIntroProps) {
  return (
    <Box component="header" className={classes.root}>
      <Container>
        <Stack gap="md" maw={780}>
          {eyebrow && <Text className={classes.eyebrow}>{eyebrow}</Text>}
          <Title order={1} className={classes.title}>
            {title}
          </Title>
          {lead && (
            <Text size="xl" c="dimmed" className={classes.lead}>
              {lead}
            </Text>
          )}
          {children}
        </Stack>
      </Container>
    </Box>
  );
}
