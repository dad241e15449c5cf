import {
  Button,
  Group,
  Modal,
  Paper,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { IconDownload, IconRefresh, IconSearch, IconX } from '@tabler/icons-react';
import {
  cancellableTokenStatuses,
  type QueueToken,
  tokenStatusSchema,
} from '@upnext/contract/tokens';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Notice } from '../../../components/tones.tsx';
import { formatSeconds, formatTime } from '../../../entities/token/format.ts';
import { TokenAnswers } from '../../../entities/token/TokenAnswers.tsx';
import { TokenStatusBadge } from '../../../entities/token/TokenStatusBadge.tsx';
import { downloadCsv } from '../../../lib/csv.ts';
import { errorText } from '../../../lib/error-text.ts';
import { useCancelToken } from '../api/cancelToken.ts';
import { useSessionTokens } from '../api/queryTokens.ts';
import { tokensToCsv } from '../csv.ts';
import { useLiveSession } from '../hooks/useLiveSession.ts';

/** Whether a token matches the search: its number or the visitor's name, any case. */
function matchesSearch(token: QueueToken, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return (
    token.displayNumber.toLowerCase().includes(needle) ||
    String(token.number) === needle ||
    token.visitorName.toLowerCase().includes(needle)
  );
}

/** Every token of the session, filtered, with cancel and a CSV export of what is shown. */
export function SessionTokensTable({ sessionId }: { sessionId: string }) {
  const { t } = useTranslation('live');
  useLiveSession(sessionId);
  const tokens = useSessionTokens(sessionId);
  const cancel = useCancelToken(sessionId);
  const [status, setStatus] = useState<string | null>(null);
  const [kind, setKind] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [cancelling, setCancelling] = useState<QueueToken | null>(null);
  const [reason, setReason] = useState('');

  const rows = useMemo(
    () =>
      (tokens.data ?? [])
        .filter((token) => !status || token.status === status)
        .filter((token) => !kind || token.kind === kind)
        .filter((token) => matchesSearch(token, search))
        .sort((a, b) => a.number - b.number),
    [tokens.data, status, kind, search],
  );

  const closeCancel = () => {
    setCancelling(null);
    setReason('');
    cancel.reset();
  };
  const confirmCancel = () => {
    if (!cancelling) return;
    const trimmed = reason.trim();
    cancel.mutate(
      { tokenId: cancelling.id, ...(trimmed ? { reason: trimmed } : {}) },
      { onSuccess: closeCancel },
    );
  };

  if (tokens.isPending) {
    return (
      <Stack gap="sm" aria-busy="true" role="status" aria-label={t('state.loading')}>
        <Skeleton height={40} radius="md" />
        <Skeleton height={240} radius="md" />
      </Stack>
    );
  }
  if (tokens.isError) {
    return (
      <Notice tone="red" role="alert" title={t('state.loadFailed')}>
        <Stack gap="sm" align="flex-start">
          {errorText(tokens.error)}
          <Button
            size="xs"
            variant="white"
            color="red.9"
            leftSection={<IconRefresh size={16} aria-hidden />}
            onClick={() => void tokens.refetch()}
          >
            {t('state.retry')}
          </Button>
        </Stack>
      </Notice>
    );
  }

  return (
    <Stack gap="md">
      <Group gap="sm" align="flex-end">
        <TextInput
          label={t('tokens.search')}
          placeholder={t('tokens.searchPlaceholder')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          w={{ base: '100%', xs: 240 }}
        />
        <Select
          label={t('tokens.status')}
          placeholder={t('tokens.anyStatus')}
          clearable
          data={tokenStatusSchema.options.map((value) => ({
            value,
            label: t(`entities:token.status.${value}`),
          }))}
          value={status}
          onChange={setStatus}
          w={{ base: '100%', xs: 180 }}
        />
        <Select
          label={t('tokens.kind')}
          placeholder={t('tokens.anyKind')}
          clearable
          data={[
            { value: 'walk_in', label: t('kind.walk_in') },
            { value: 'booking', label: t('kind.booking') },
          ]}
          value={kind}
          onChange={setKind}
          w={{ base: '100%', xs: 160 }}
        />
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden />}
          disabled={rows.length === 0}
          onClick={() => downloadCsv(`tokens-${sessionId}.csv`, tokensToCsv(rows))}
        >
          {t('tokens.export')}
        </Button>
      </Group>
      <Text size="sm" c="dimmed" aria-live="polite">
        {t('tokens.count', { count: rows.length, total: tokens.data.length })}
      </Text>
      {rows.length === 0 ? (
        <Paper withBorder radius="lg" p="xl">
          <Text ta="center" c="dimmed">
            {tokens.data.length === 0 ? t('tokens.empty') : t('tokens.noMatch')}
          </Text>
        </Paper>
      ) : (
        <Table.ScrollContainer
          minWidth={760}
          tabIndex={0}
          role="region"
          aria-label={t('tokens.caption')}
        >
          <Table highlightOnHover verticalSpacing="xs">
            <Table.Caption>{t('tokens.caption')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('tokens.columns.number')}</Table.Th>
                <Table.Th scope="col">{t('tokens.columns.name')}</Table.Th>
                <Table.Th scope="col">{t('tokens.columns.kind')}</Table.Th>
                <Table.Th scope="col">{t('tokens.columns.status')}</Table.Th>
                <Table.Th scope="col">{t('tokens.columns.joined')}</Table.Th>
                <Table.Th scope="col">{t('tokens.columns.called')}</Table.Th>
                <Table.Th scope="col">{t('tokens.columns.service')}</Table.Th>
                <Table.Th scope="col">
                  <VisuallyHidden>{t('tokens.columns.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((token) => (
                <Table.Tr key={token.id}>
                  <Table.Th scope="row" ff="monospace">
                    {token.displayNumber}
                  </Table.Th>
                  <Table.Td>
                    <Text size="sm">{token.visitorName}</Text>
                    {token.visitorPhone ? (
                      <Text size="xs" c="dimmed">
                        {token.visitorPhone}
                      </Text>
                    ) : null}
                    <TokenAnswers answers={token.answers} withTitle={false} />
                  </Table.Td>
                  <Table.Td>{t(`kind.${token.kind}`)}</Table.Td>
                  <Table.Td>
                    <TokenStatusBadge status={token.status} />
                  </Table.Td>
                  <Table.Td>{formatTime(token.joinedAt)}</Table.Td>
                  <Table.Td>{formatTime(token.calledAt)}</Table.Td>
                  <Table.Td>{formatSeconds(token.serviceSeconds)}</Table.Td>
                  <Table.Td>
                    {cancellableTokenStatuses.includes(token.status) ? (
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        color="red.9"
                        // The subtle variant would draw red.6, too light on a grey row (axe).
                        c="red.9"
                        leftSection={<IconX size={14} aria-hidden />}
                        aria-label={t('tokens.cancelLabel', { number: token.displayNumber })}
                        onClick={() => setCancelling(token)}
                      >
                        {t('tokens.cancel')}
                      </Button>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Modal
        opened={cancelling !== null}
        onClose={closeCancel}
        title={t('tokens.cancelTitle', { number: cancelling?.displayNumber ?? '' })}
        closeButtonProps={{ 'aria-label': t('actions.closeDialog') }}
      >
        <Stack gap="md">
          <Text>{t('tokens.cancelBody', { name: cancelling?.visitorName ?? '' })}</Text>
          <Textarea
            label={t('tokens.reason')}
            maxLength={200}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
          />
          {cancel.error ? (
            <Notice tone="red" role="alert">
              {errorText(cancel.error)}
            </Notice>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={closeCancel}>
              {t('actions.back')}
            </Button>
            <Button color="red.9" loading={cancel.isPending} onClick={confirmCancel}>
              {t('tokens.confirmCancel')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
