import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconPlayerPause, IconPlayerPlay, IconPlayerStop } from '@tabler/icons-react';
import { type SessionStatus, sessionTransitions } from '@upnext/contract/sessions';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Notice } from '../../../components/tones.tsx';
import { SessionStatusBadge } from '../../../entities/session/SessionStatusBadge.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { useSetSessionStatus } from '../api/setSessionStatus.ts';

const icons: Partial<Record<SessionStatus, ReactNode>> = {
  open: <IconPlayerPlay size={16} aria-hidden />,
  paused: <IconPlayerPause size={16} aria-hidden />,
  closed: <IconPlayerStop size={16} aria-hidden />,
};

/** The session's state and the open, pause and close the state rules allow (close asks first). */
export function SessionStatusControls({
  sessionId,
  status,
}: {
  sessionId: string;
  status: SessionStatus;
}) {
  const { t } = useTranslation('live');
  const setStatus = useSetSessionStatus(sessionId);
  const [confirmClose, setConfirmClose] = useState(false);
  const targets = sessionTransitions[status].filter((next) => next !== 'cancelled');
  const change = (next: SessionStatus) =>
    setStatus.mutate({ sessionId, status: next }, { onSuccess: () => setConfirmClose(false) });

  return (
    <Stack gap="xs">
      <Group gap="sm">
        <Text fw={600}>{t('session.label')}</Text>
        <SessionStatusBadge status={status} size="lg" />
        {targets.map((next) => (
          <Button
            key={next}
            size="sm"
            variant={next === 'open' ? 'filled' : 'default'}
            leftSection={icons[next]}
            loading={setStatus.isPending && setStatus.variables?.status === next}
            disabled={setStatus.isPending}
            onClick={() => (next === 'closed' ? setConfirmClose(true) : change(next))}
          >
            {next === 'open' && status === 'paused'
              ? t('session.actions.resume')
              : t(`session.actions.${next}`)}
          </Button>
        ))}
      </Group>
      {setStatus.error && !confirmClose ? (
        <Notice tone="red" role="alert">
          {errorText(setStatus.error)}
        </Notice>
      ) : null}
      <Modal
        opened={confirmClose}
        onClose={() => setConfirmClose(false)}
        title={t('session.closeTitle')}
        closeButtonProps={{ 'aria-label': t('actions.closeDialog') }}
      >
        <Stack gap="md">
          <Text>{t('session.closeBody')}</Text>
          {setStatus.error ? (
            <Notice tone="red" role="alert">
              {errorText(setStatus.error)}
            </Notice>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirmClose(false)}>
              {t('actions.back')}
            </Button>
            <Button color="red.9" loading={setStatus.isPending} onClick={() => change('closed')}>
              {t('session.actions.closed')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
