import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { QueueToken } from '@upnext/contract/tokens';
import { useTranslation } from 'react-i18next';
import { TokenStatusBadge } from '../../../entities/token/TokenStatusBadge.tsx';

interface TokenListProps {
  title: string;
  empty: string;
  tokens: readonly QueueToken[];
  /** The number the title shows, when not every listed token counts (default: all). */
  count?: number | undefined;
  /** What to show at the row's end: position and wait, or the slot's time. */
  detail: (token: QueueToken) => string;
  /** Called tokens can be taken over by this staff member. */
  onSelect?: ((token: QueueToken) => void) | undefined;
  selectedId?: string | null | undefined;
}

export function TokenList({
  title,
  empty,
  tokens,
  count = tokens.length,
  detail,
  onSelect,
  selectedId,
}: TokenListProps) {
  const { t } = useTranslation('live');
  return (
    <Paper withBorder radius="lg" p="md" component="section" aria-label={title}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {title} ({count})
        </Title>
        {tokens.length === 0 ? (
          <Text c="dimmed">{empty}</Text>
        ) : (
          <Stack component="ol" gap={6} p={0} m={0} style={{ listStyle: 'none' }}>
            {tokens.map((token) => (
              <Group
                component="li"
                key={token.id}
                justify="space-between"
                wrap="wrap"
                gap="xs"
                py={4}
                style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
              >
                <Group gap="sm" wrap="nowrap" miw={0} style={{ flex: '1 1 12rem' }}>
                  <Text fw={700} ff="monospace" miw={56}>
                    {token.displayNumber}
                  </Text>
                  <Text truncate>{token.visitorName}</Text>
                  {token.priority > 0 ? (
                    <Text size="xs" c="dimmed">
                      {t('list.priority', { priority: token.priority })}
                    </Text>
                  ) : null}
                </Group>
                <Group gap="xs" wrap="nowrap">
                  {token.status === 'called' || token.status === 'serving' ? (
                    <TokenStatusBadge status={token.status} />
                  ) : null}
                  <Text size="sm" c="dimmed" ta="right">
                    {detail(token)}
                  </Text>
                  {onSelect &&
                  (token.status === 'called' || token.status === 'serving') &&
                  token.id !== selectedId ? (
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      onClick={() => onSelect(token)}
                      aria-label={t('list.takeOverLabel', { number: token.displayNumber })}
                    >
                      {t('list.takeOver')}
                    </Button>
                  ) : null}
                </Group>
              </Group>
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
