import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Collapse,
  Container,
  EmptyState,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconExternalLink, IconMail, IconMailOff, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { extractLinkAndCode, type MailboxMessage, useDevMailbox } from '../api/mailbox.ts';

function MessageCard({ message }: { message: MailboxMessage }) {
  const { t, i18n } = useTranslation('devMailbox');
  const [open, setOpen] = useState(false);
  const { link, code } = extractLinkAndCode(message.text);
  const sent = new Intl.DateTimeFormat(i18n.language, {
    dateStyle: 'medium',
    timeStyle: 'medium',
  }).format(new Date(message.created_at));
  const bodyId = `mail-${message.id}`;
  return (
    <Paper component="article" withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="sm">
        <div>
          <Title order={2} size="h5">
            {message.subject}
          </Title>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {t('to', { to: message.to })}
          </Text>
          <Text size="xs" c="dimmed" component="time" dateTime={message.created_at}>
            {sent}
          </Text>
        </div>
        {code || link ? (
          <Group gap="sm">
            {code ? (
              <Group gap={6}>
                <Text size="sm">{t('code')}</Text>
                <Badge size="lg" variant="light" radius="sm" ff="monospace" data-testid="mail-code">
                  {code}
                </Badge>
              </Group>
            ) : null}
            {link ? (
              <Button
                component="a"
                href={link}
                size="compact-sm"
                rightSection={<IconExternalLink size={14} aria-hidden />}
              >
                {t('open')}
              </Button>
            ) : null}
          </Group>
        ) : null}
        <Anchor
          component="button"
          type="button"
          size="sm"
          onClick={() => setOpen((value) => !value)}
          aria-expanded={open}
          aria-controls={bodyId}
          style={{ alignSelf: 'flex-start' }}
        >
          {open ? t('hide') : t('show')}
        </Anchor>
        <Collapse expanded={open} id={bodyId}>
          <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {message.text}
          </Code>
        </Collapse>
      </Stack>
    </Paper>
  );
}

/**
 * `/dev/mailbox`: the mail the server kept because no SMTP server is configured (never in
 * production), newest first, so a newcomer can confirm a sign-up or use a code locally.
 */
export function DevMailbox() {
  const { t } = useTranslation('devMailbox');
  const [to, setTo] = useState('');
  const mailbox = useDevMailbox(to);

  let content: React.ReactNode;
  if (mailbox.isPending) {
    content = (
      <Group justify="center" py="xl">
        <Loader aria-label={t('title')} />
      </Group>
    );
  } else if (mailbox.isError) {
    content = (
      <Alert color="red" variant="light" title={t('errorTitle')}>
        {mailbox.error.message}
      </Alert>
    );
  } else if (mailbox.data.kind === 'unavailable') {
    content = (
      <Paper withBorder radius="lg" py={48} px="lg">
        <EmptyState icon={<IconMailOff aria-hidden />} variant="light" size="lg">
          <EmptyState.Title order={2}>{t('unavailableTitle')}</EmptyState.Title>
          <EmptyState.Description maw={520}>{t('unavailableBody')}</EmptyState.Description>
        </EmptyState>
      </Paper>
    );
  } else if (mailbox.data.messages.length === 0) {
    content = (
      <Paper withBorder radius="lg" py={48} px="lg">
        <EmptyState icon={<IconMail aria-hidden />} variant="light" size="lg">
          <EmptyState.Title order={2}>{t('emptyTitle')}</EmptyState.Title>
          <EmptyState.Description maw={520}>{t('emptyBody')}</EmptyState.Description>
        </EmptyState>
      </Paper>
    );
  } else {
    content = (
      <Stack gap="md">
        <Text size="sm" c="dimmed" aria-live="polite">
          {t('count', { count: mailbox.data.messages.length })}
        </Text>
        {mailbox.data.messages.map((message) => (
          <MessageCard key={message.id} message={message} />
        ))}
      </Stack>
    );
  }

  return (
    <Container size="md" py={{ base: 32, sm: 56 }}>
      <Stack gap="lg">
        <Stack gap={6}>
          <Title order={1}>{t('title')}</Title>
          <Text c="dimmed" size="lg">
            {t('description')}
          </Text>
        </Stack>
        <Group align="flex-end" gap="sm">
          <TextInput
            label={t('filter')}
            placeholder={t('filterPlaceholder')}
            type="email"
            value={to}
            onChange={(event) => setTo(event.currentTarget.value)}
            style={{ flex: 1, minWidth: 200 }}
          />
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} aria-hidden />}
            onClick={() => void mailbox.refetch()}
            loading={mailbox.isFetching && !mailbox.isPending}
          >
            {t('refresh')}
          </Button>
        </Group>
        {content}
      </Stack>
    </Container>
  );
}
