import { Anchor, Button, EmptyState, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorAction, errorText } from '../lib/error-text.ts';
import { Notice } from './tones.tsx';

/** Grey bars in the shape of a list while it loads; announced once to screen readers. */
export function LoadingList({ rows = 3, label }: { rows?: number; label?: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" aria-busy="true" role="status" aria-label={label ?? t('state.loading')}>
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <Skeleton key={i} height={72} radius="md" />
      ))}
    </Stack>
  );
}

/** A failed load: the reason (each feature words it) and a way to try again. */
export function LoadFailed({ message, onRetry }: { message: string; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <Notice
      tone="red"
      title={t('state.loadFailed')}
      icon={<IconAlertTriangle aria-hidden />}
      role="alert"
    >
      <Stack gap="sm" align="flex-start">
        {message}
        {onRetry ? (
          <Button
            size="xs"
            variant="white"
            color="red.9"
            leftSection={<IconRefresh size={16} aria-hidden />}
            onClick={onRetry}
          >
            {t('state.retry')}
          </Button>
        ) : null}
      </Stack>
    </Notice>
  );
}

/** A failed load, in the words `errorText` chooses for it, with a way to try again. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  return <LoadFailed message={errorText(error)} {...(onRetry ? { onRetry } : {})} />;
}

/** A refused or failed action, said in the form or dialog that sent it; nothing without one. */
export function ErrorNotice({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const action = errorAction(error);
  return (
    <Notice tone="red" role="alert" title={title}>
      {action ? (
        <Stack gap={4} align="flex-start">
          <Text inherit>{errorText(error)}</Text>
          <Anchor component={Link} to={action.to} fw={600} c="red.9" underline="always">
            {action.label}
          </Anchor>
        </Stack>
      ) : (
        errorText(error)
      )}
    </Notice>
  );
}

interface EmptyBlockProps {
  icon: ReactNode;
  title: string;
  body?: string;
  action?: ReactNode;
  /**
   * Heading level of the title (2 when the empty block is the page's only section; 1 when it
   * is the whole page, as a status link that no longer works).
   */
  order?: 1 | 2 | 3 | 4;
}

export function EmptyBlock({ icon, title, body, action, order = 2 }: EmptyBlockProps) {
  return (
    <Paper withBorder radius="lg" py={{ base: 32, sm: 48 }} px={{ base: 'md', sm: 40 }}>
      <EmptyState icon={icon} variant="light" size="lg">
        <EmptyState.Title order={order}>{title}</EmptyState.Title>
        {body ? <EmptyState.Description maw={520}>{body}</EmptyState.Description> : null}
        {action ? <Group justify="center">{action}</Group> : null}
      </EmptyState>
    </Paper>
  );
}
