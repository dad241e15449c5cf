import { Button, Notification, Stack, Text } from '@mantine/core';
import { IconMessageCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { MeetingChat } from './useMeetingChat.ts';

/**
 * "You have new chat message" (spec §2), shown while the drawer is closed and a message has
 * just arrived (the hook plays the tone and hides it after 5 s). Rendered by the meeting screen
 * inside its own tree, so it shows in full screen too.
 */
export function ChatNotice({ chat }: { chat: MeetingChat }) {
  const { t } = useTranslation('chat');
  return (
    <div role="status" aria-live="polite">
      {chat.notice ? (
        <Notification
          icon={<IconMessageCircle size={18} aria-hidden />}
          title={t('newMessage')}
          onClose={chat.dismissNotice}
          closeButtonProps={{ 'aria-label': t('dismiss') }}
          withBorder
          maw={360}
        >
          <Stack gap={6} align="flex-start">
            <Text size="sm" lineClamp={2}>
              {chat.notice.msg}
            </Text>
            <Button size="compact-sm" variant="light" onClick={() => chat.setOpened(true)}>
              {t('openChat')}
            </Button>
          </Stack>
        </Notification>
      ) : null}
    </div>
  );
}
