import {
  Badge,
  Box,
  Divider,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
} from '@mantine/core';
import { IconBell, IconMapPin } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import classes from './TicketPreview.module.css';

/**
 * An illustration of what a visitor sees on their phone, built from real components so it
 * stays sharp and follows the theme. Announced as one image with a full description.
 */
export function TicketPreview() {
  const { t } = useTranslation('marketing');
  const p = (key: string) => t(`home.hero.preview.${key}`);
  return (
    <Box role="img" aria-label={p('label')} className={classes.stage}>
      <Paper
        shadow="xl"
        radius="xl"
        p="lg"
        withBorder
        className={classes.ticket}
        aria-hidden="true"
      >
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
          <Stack gap={2}>
            <Text fw={700}>{p('queue')}</Text>
            <Text size="sm" c="dimmed">
              {p('service')}
            </Text>
          </Stack>
          <Badge variant="light" size="lg" radius="sm" className={classes.status}>
            {p('status')}
          </Badge>
        </Group>
        <Stack gap={0} align="center" my="lg">
          <Text size="xs" tt="uppercase" fw={700} c="dimmed" className={classes.tracking}>
            {p('tokenLabel')}
          </Text>
          <Text className={classes.token}>{p('token')}</Text>
        </Stack>
        <SimpleGrid cols={2} spacing="sm">
          <Box className={classes.metric}>
            <Text size="xs" c="dimmed" fw={600}>
              {p('aheadLabel')}
            </Text>
            <Text fw={700} size="lg">
              {p('ahead')}
            </Text>
          </Box>
          <Box className={classes.metric}>
            <Text size="xs" c="dimmed" fw={600}>
              {p('waitLabel')}
            </Text>
            <Text fw={700} size="lg">
              {p('wait')}
            </Text>
          </Box>
        </SimpleGrid>
        <Box className={classes.progress} mt="md">
          <Box className={classes.progressBar} />
        </Box>
        <Divider my="md" />
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon variant="light" radius="xl" size="md">
            <IconMapPin size={16} />
          </ThemeIcon>
          <Text size="sm">
            {p('nowServingLabel')}: <strong>{p('nowServing')}</strong> · {p('counter')}
          </Text>
        </Group>
      </Paper>
      <Paper shadow="md" radius="lg" p="sm" withBorder className={classes.toast} aria-hidden="true">
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon radius="xl" size="md">
            <IconBell size={16} />
          </ThemeIcon>
          <Text size="sm" fw={600}>
            {p('notice')}
          </Text>
        </Group>
      </Paper>
    </Box>
  );
}
