import {
  ActionIcon,
  Anchor,
  Box,
  Button,
  Drawer,
  FileButton,
  Group,
  Paper,
  Progress,
  Stack,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { IconDownload, IconFile, IconPaperclip, IconSend, IconX } from '@tabler/icons-react';
import { chatFileMaxBytes, chatMessageMaxLength } from '@upnext/contract/meetings';
import type { TFunction } from 'i18next';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Notice } from '../../../components/tones.tsx';
import type { ChatMessage, FileTransfer, SendRefusal, SendResult } from './chatSession.ts';
import { formatFileSize } from './format.ts';
import type { MeetingChat } from './useMeetingChat.ts';

const UNDER_WAY: readonly FileTransfer['status'][] = ['queued', 'sending', 'receiving'];

/**
 * The meeting's chat drawer (spec §2): titled Chat, the messages, a text input labelled
 * "Type a message", Attach file and Send (Enter sends too); files show their name, size,
 * progress on both sides, Cancel while under way and a download link once checked.
 * In full screen only the full-screen element's subtree is visible: pass it as `portalTarget`.
 */
export function ChatDrawer({
  chat,
  portalTarget,
}: {
  chat: MeetingChat;
  portalTarget?: HTMLElement | null;
}) {
  const { t } = useTranslation('chat');
  const [text, setText] = useState('');
  const [refusal, setRefusal] = useState<SendRefusal | null>(null);
  const log = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const resetFile = useRef<() => void>(null);
  const transfers = new Map(chat.transfers.map((transfer) => [transfer.id, transfer]));

  // Keep the newest message in view.
  const count = chat.messages.length;
  useEffect(() => {
    if (count > 0 && log.current) log.current.scrollTop = log.current.scrollHeight;
  }, [count]);

  const outcome = (result: SendResult) => {
    setRefusal(result.ok ? null : result.reason);
    return result.ok;
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (outcome(chat.send(text))) setText('');
    input.current?.focus();
  };

  return (
    <Drawer
      opened={chat.opened}
      onClose={() => chat.setOpened(false)}
      title={t('title')}
      position="right"
      size="md"
      {...(portalTarget ? { portalProps: { target: portalTarget } } : {})}
      styles={{
        // Portalled into the dark call stage, whose white text must not reach the drawer.
        content: { display: 'flex', flexDirection: 'column', color: 'var(--mantine-color-text)' },
        title: { fontWeight: 700 },
        body: { display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0, gap: 12 },
      }}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      {chat.channelOpen ? null : (
        <Notice tone="yellow" role="status">
          {t('notConnected')}
        </Notice>
      )}
      <Box
        ref={log}
        role="log"
        aria-label={t('messages')}
        aria-live="polite"
        tabIndex={0}
        style={{ flex: 1, minHeight: 0, overflowY: 'auto' }}
      >
        {count === 0 ? (
          <Text c="dimmed" size="sm">
            {t('empty')}
          </Text>
        ) : (
          <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
            {chat.messages.map((message) => (
              <MessageItem
                key={message.id}
                message={message}
                transfer={message.transferId ? transfers.get(message.transferId) : undefined}
                onCancel={chat.cancel}
              />
            ))}
          </Stack>
        )}
      </Box>
      <form onSubmit={submit} noValidate>
        <Group gap="xs" wrap="nowrap" align="flex-end">
          <FileButton
            onChange={(file) => {
              if (file) outcome(chat.sendFile(file));
              // The same file may be chosen again.
              resetFile.current?.();
            }}
            resetRef={resetFile}
          >
            {(props) => (
              <ActionIcon
                {...props}
                variant="default"
                size={36}
                aria-label={t('attach')}
                title={t('attach')}
              >
                <IconPaperclip size={18} aria-hidden />
              </ActionIcon>
            )}
          </FileButton>
          <TextInput
            ref={input}
            data-autofocus
            aria-label={t('input')}
            placeholder={t('input')}
            value={text}
            onChange={(event) => {
              setText(event.currentTarget.value);
              if (refusal) setRefusal(null);
            }}
            maxLength={chatMessageMaxLength + 200}
            autoComplete="off"
            style={{ flex: 1 }}
            aria-describedby={refusal ? 'chat-refusal' : undefined}
          />
          <Button type="submit" leftSection={<IconSend size={16} aria-hidden />}>
            {t('send')}
          </Button>
        </Group>
        {refusal && refusal !== 'empty' ? (
          <Text id="chat-refusal" role="alert" size="sm" c="red.9" mt={6}>
            {t(`refused.${refusal}`, {
              max:
                refusal === 'too_large' ? formatFileSize(chatFileMaxBytes) : chatMessageMaxLength,
            })}
          </Text>
        ) : null}
      </form>
    </Drawer>
  );
}

function MessageItem({
  message,
  transfer,
  onCancel,
}: {
  message: ChatMessage;
  transfer: FileTransfer | undefined;
  onCancel: (id: string) => void;
}) {
  const { t } = useTranslation('chat');
  const mine = message.sender === 'me';
  return (
    <Box
      component="li"
      style={{ display: 'flex', justifyContent: mine ? 'flex-end' : 'flex-start' }}
    >
      <Paper
        radius="md"
        px="sm"
        py={6}
        maw="85%"
        bg={mine ? 'brand.7' : 'gray.1'}
        c={mine ? 'white' : 'gray.9'}
        style={{ overflowWrap: 'anywhere' }}
      >
        <VisuallyHidden>{mine ? t('you') : t('them')}: </VisuallyHidden>
        {message.type === 'file' && transfer ? (
          <FileCard transfer={transfer} onCancel={onCancel} inverted={mine} />
        ) : (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {message.msg}
          </Text>
        )}
      </Paper>
    </Box>
  );
}

function FileCard({
  transfer,
  onCancel,
  inverted,
}: {
  transfer: FileTransfer;
  onCancel: (id: string) => void;
  inverted: boolean;
}) {
  const { t } = useTranslation('chat');
  const percent = transfer.size > 0 ? Math.floor((transfer.bytes / transfer.size) * 100) : 100;
  const underWay = UNDER_WAY.includes(transfer.status);
  const dimmed = inverted ? 'gray.0' : 'gray.7';
  return (
    <Stack gap={6} miw={200}>
      <Group gap={6} wrap="nowrap">
        <IconFile size={18} aria-hidden style={{ flexShrink: 0 }} />
        <Text size="sm" fw={600}>
          {transfer.name}
        </Text>
      </Group>
      <Text size="xs" c={dimmed}>
        {underWay
          ? t('file.sizeOf', {
              done: formatFileSize(transfer.bytes),
              size: formatFileSize(transfer.size),
            })
          : formatFileSize(transfer.size)}
        {' · '}
        <span role={transfer.status === 'failed' ? 'alert' : undefined}>
          {statusText(t, transfer)}
        </span>
      </Text>
      {underWay || transfer.status === 'verifying' ? (
        <Progress
          value={percent}
          size="sm"
          color={inverted ? 'white' : 'brand'}
          bg={inverted ? 'brand.9' : 'gray.3'}
          aria-label={t('file.progressLabel', { name: transfer.name, percent })}
          animated={transfer.status === 'verifying'}
          striped={transfer.status === 'verifying'}
        />
      ) : null}
      {underWay ? (
        <Group>
          <Button
            size="compact-sm"
            variant={inverted ? 'white' : 'default'}
            leftSection={<IconX size={14} aria-hidden />}
            aria-label={t('file.cancelLabel', { name: transfer.name })}
            onClick={() => onCancel(transfer.id)}
          >
            {t('file.cancel')}
          </Button>
        </Group>
      ) : null}
      {transfer.status === 'complete' && transfer.url ? (
        <Anchor
          href={transfer.url}
          download={transfer.name}
          size="sm"
          fw={600}
          aria-label={t('file.downloadLabel', { name: transfer.name })}
        >
          <Group gap={4} component="span">
            <IconDownload size={16} aria-hidden />
            {t('file.download')}
          </Group>
        </Anchor>
      ) : null}
    </Stack>
  );
}

function statusText(t: TFunction<'chat'>, transfer: FileTransfer): string {
  switch (transfer.status) {
    case 'complete':
      return t(transfer.direction === 'out' ? 'file.status.completeOut' : 'file.status.completeIn');
    case 'verifying':
      return t(transfer.direction === 'out' ? 'file.status.verifyingOut' : 'file.status.verifying');
    case 'cancelled':
      return t(
        transfer.cancelledBy === 'other'
          ? 'file.status.cancelledByOther'
          : 'file.status.cancelledByMe',
      );
    case 'failed':
      return t(`file.failure.${transfer.failure ?? 'local_error'}`, {
        max: formatFileSize(chatFileMaxBytes),
      });
    default:
      return t(`file.status.${transfer.status}`);
  }
}
