import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconPhone, IconPhoneOff } from '@tabler/icons-react';
import type { Meeting } from '@upnext/contract/meetings';
import { useTranslation } from 'react-i18next';
import { PreCallCheck } from './PreCallCheck.tsx';

interface IncomingCallDialogProps {
  opened: boolean;
  /** The meeting as the API describes it (null until it has loaded). */
  meeting: Meeting | null;
  /** The caller's email as the offer carried it. */
  from: string;
  connecting: boolean;
  onAnswer: () => void;
  onDecline: () => void;
}

/** Spec §2 "App shell": the Incoming Call dialog, with Answer and Decline. */
export function IncomingCallDialog({
  opened,
  meeting,
  from,
  connecting,
  onAnswer,
  onDecline,
}: IncomingCallDialogProps) {
  const { t } = useTranslation('meeting');
  const name = meeting?.staffName || from;
  return (
    <Modal
      opened={opened}
      onClose={() => {}}
      title={t('incoming.title')}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      centered
      size="md"
      zIndex={400}
      data-testid="incoming-call"
    >
      <Stack gap="md">
        <Stack gap={2} aria-live="polite">
          <Text fw={700} size="lg">
            {name ? t('incoming.caller', { name }) : t('incoming.callerUnknown')}
          </Text>
          {meeting ? (
            <Text size="sm" c="dimmed">
              {t('incoming.about', {
                company: meeting.companyName,
                queue: meeting.queueName,
                token: meeting.tokenLabel,
              })}
            </Text>
          ) : null}
        </Stack>
        <PreCallCheck />
        <Text size="sm" c="dimmed">
          {connecting ? t('incoming.connecting') : t('incoming.checkHint')}
        </Text>
        <Group grow>
          <Button
            color="red"
            variant="light"
            leftSection={<IconPhoneOff size={18} aria-hidden />}
            onClick={onDecline}
            disabled={connecting}
          >
            {t('incoming.decline')}
          </Button>
          <Button
            color="green"
            leftSection={<IconPhone size={18} aria-hidden />}
            onClick={onAnswer}
            loading={connecting}
            data-autofocus
          >
            {t('incoming.answer')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
