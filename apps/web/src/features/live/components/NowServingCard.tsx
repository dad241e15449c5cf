import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import {
  IconArrowBackUp,
  IconBellRinging,
  IconCheck,
  IconPlayerPlay,
  IconPlayerTrackNext,
  IconUserOff,
} from '@tabler/icons-react';
import type { QueueToken, TokenAction } from '@upnext/contract/tokens';
import { useTranslation } from 'react-i18next';
import { Notice } from '../../../components/tones.tsx';
import { TokenAnswers } from '../../../entities/token/TokenAnswers.tsx';
import { TokenStatusBadge } from '../../../entities/token/TokenStatusBadge.tsx';
import { errorText } from '../../../lib/error-text.ts';

interface NowServingCardProps {
  token: QueueToken | null;
  /** True when the last Call next found nobody waiting. */
  nobodyWaiting: boolean;
  canCall: boolean;
  calling: boolean;
  acting: TokenAction | null;
  error: unknown;
  onCallNext: () => void;
  onAction: (action: TokenAction) => void;
  /** Further actions on the token (the console's Video call). */
  extraActions?: React.ReactNode;
}

/** The token this staff member called, in large type, with what can be done with it. */
export function NowServingCard({
  token,
  nobodyWaiting,
  canCall,
  calling,
  acting,
  error,
  onCallNext,
  onAction,
  extraActions,
}: NowServingCardProps) {
  const { t } = useTranslation('live');
  const busy = calling || acting !== null;
  const action = (name: TokenAction, icon: React.ReactNode, variant = 'default') => (
    <Button
      variant={variant}
      leftSection={icon}
      loading={acting === name}
      disabled={busy && acting !== name}
      onClick={() => onAction(name)}
    >
      {t(`actions.${name}`)}
    </Button>
  );

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
      <Stack gap="md">
        <Title order={2} size="h4">
          {t('console.nowServing')}
        </Title>
        <div aria-live="polite" aria-atomic="true">
          {token ? (
            <Stack gap={4}>
              <Text
                data-testid="now-serving"
                fw={800}
                lh={1}
                fz={{ base: 56, sm: 88 }}
                ff="monospace"
              >
                {token.displayNumber}
              </Text>
              <Group gap="xs">
                <Text fw={600} size="lg">
                  {token.visitorName}
                </Text>
                <TokenStatusBadge status={token.status} />
              </Group>
              {token.notes ? <Text c="dimmed">{token.notes}</Text> : null}
              <TokenAnswers answers={token.answers} />
            </Stack>
          ) : (
            <Text c="dimmed" size="lg">
              {nobodyWaiting ? t('console.nobodyWaiting') : t('console.nobodyCalled')}
            </Text>
          )}
        </div>
        <Group gap="sm">
          <Button
            size="lg"
            leftSection={<IconPlayerTrackNext aria-hidden />}
            loading={calling}
            disabled={!canCall || (busy && !calling)}
            onClick={onCallNext}
          >
            {t('actions.next')}
          </Button>
        </Group>
        {!canCall ? <Text size="sm">{t('console.openToCall')}</Text> : null}
        {token ? (
          <Group gap="sm">
            {token.status === 'called'
              ? action('start', <IconPlayerPlay size={16} aria-hidden />, 'light')
              : null}
            {action('complete', <IconCheck size={16} aria-hidden />, 'light')}
            {token.status === 'called'
              ? action('recall', <IconBellRinging size={16} aria-hidden />)
              : null}
            {token.status === 'called'
              ? action('no-show', <IconUserOff size={16} aria-hidden />)
              : null}
            {action('requeue', <IconArrowBackUp size={16} aria-hidden />)}
            {extraActions}
          </Group>
        ) : null}
        {error ? (
          <Notice tone="red" role="alert" title={t('console.refused')}>
            {errorText(error)}
          </Notice>
        ) : null}
      </Stack>
    </Paper>
  );
}
