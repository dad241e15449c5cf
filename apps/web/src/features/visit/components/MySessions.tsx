import { Anchor, Button, Group, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { IconCalendarPlus, IconMapPin, IconTicket } from '@tabler/icons-react';
import { buildPath, spaRoutes } from '@upnext/contract/routes';
import { cancellableTokenStatuses, type QueueToken } from '@upnext/contract/tokens';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyBlock, LoadError, LoadingList } from '../../../components/StateViews.tsx';
import { Notice } from '../../../components/tones.tsx';
import { formatMoney } from '../../../entities/payment/format.ts';
import { formatDay, shortTime, todayLocal } from '../../../entities/session/format.ts';
import { formatInstant } from '../../../entities/token/format.ts';
import { TokenAnswers } from '../../../entities/token/TokenAnswers.tsx';
import { TokenStatusBadge } from '../../../entities/token/TokenStatusBadge.tsx';
import { useAssignedSessions } from '../api/assignedSessions.ts';
import { downloadBookingCalendar, useBookingDetails } from '../api/bookingDetails.ts';
import { useCancelToken } from '../api/cancelToken.ts';
import { useQueue } from '../api/getQueue.ts';
import { followsSession, liveStatuses, useLiveTokens } from '../hooks/useLiveTokens.ts';
import { CallWaiting } from './CallWaiting.tsx';
import { ChangeRule } from './ChangeRule.tsx';
import { TokenFigures, YourTurn } from './LiveTokenCard.tsx';
import { PaymentStatusLine, PayPanel } from './PaymentPanel.tsx';
import { RescheduleDialog } from './RescheduleDialog.tsx';
import { noticeText, refundOnCancel } from './refundRule.ts';
import { SessionNotice } from './SessionNotice.tsx';
import { visitErrorText } from './visitError.ts';

/** `/admin/my-sessions`: the visitor's tokens and bookings, live; staff also see today's sessions. */
export function MySessions({ highlightTokenId }: { highlightTokenId: string | null }) {
  const { t, i18n } = useTranslation('visit');
  const { tokens, userData } = useLiveTokens();
  const [cancelling, setCancelling] = useState<QueueToken | null>(null);
  const [moving, setMoving] = useState<QueueToken | null>(null);
  const [moved, setMoved] = useState<QueueToken | null>(null);
  const isStaff = Boolean(userData.data?.companies.some((c) => c.status === 'active'));

  const list = tokens.data ?? [];
  const current = list
    .filter((token) => liveStatuses.includes(token.status))
    .sort((a, b) => liveStatuses.indexOf(a.status) - liveStatuses.indexOf(b.status));
  const past = list.filter((token) => !liveStatuses.includes(token.status));

  return (
    <Stack gap="xl">
      {isStaff ? <AssignedSessions /> : null}
      <Stack gap="sm" component="section" aria-labelledby="my-tokens-title">
        <Title order={2} id="my-tokens-title">
          {t('mine.currentTitle')}
        </Title>
        {tokens.isPending ? <LoadingList rows={2} /> : null}
        {tokens.isError && !tokens.data ? (
          <LoadError error={tokens.error} onRetry={() => void tokens.refetch()} />
        ) : null}
        {tokens.data && current.length === 0 ? (
          <EmptyBlock
            order={3}
            icon={<IconTicket aria-hidden />}
            title={t('mine.emptyTitle')}
            body={t('mine.emptyBody')}
            action={
              <Button component={Link} to={spaRoutes.join}>
                {t('mine.findQueue')}
              </Button>
            }
          />
        ) : null}
        <div role="status" aria-live="polite">
          {moved ? (
            <Notice tone="teal" withCloseButton onClose={() => setMoved(null)}>
              {t('reschedule.done', {
                number: moved.displayNumber,
                when: moved.slotStartsAt ? formatInstant(moved.slotStartsAt, i18n.language) : '',
              })}
            </Notice>
          ) : null}
        </div>
        <TokenList
          tokens={current}
          highlightTokenId={highlightTokenId}
          onCancel={setCancelling}
          onReschedule={setMoving}
        />
      </Stack>
      {past.length > 0 ? (
        <Stack gap="sm" component="section" aria-labelledby="my-past-title">
          <Title order={2} id="my-past-title">
            {t('mine.pastTitle')}
          </Title>
          <TokenList
            tokens={past}
            highlightTokenId={highlightTokenId}
            onCancel={setCancelling}
            onReschedule={setMoving}
          />
        </Stack>
      ) : null}
      <CancelDialog token={cancelling} onClose={() => setCancelling(null)} />
      <RescheduleDialog
        token={moving}
        onClose={() => setMoving(null)}
        onMoved={(token) => {
          setMoving(null);
          setMoved(token);
        }}
      />
    </Stack>
  );
}

interface TokenListProps {
  tokens: QueueToken[];
  highlightTokenId: string | null;
  onCancel: (token: QueueToken) => void;
  onReschedule: (token: QueueToken) => void;
}

function TokenList({ tokens, highlightTokenId, onCancel, onReschedule }: TokenListProps) {
  if (tokens.length === 0) return null;
  return (
    <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
      {tokens.map((token) => (
        <li key={token.id}>
          <TokenCard
            token={token}
            highlighted={token.id === highlightTokenId}
            onCancel={() => onCancel(token)}
            onReschedule={() => onReschedule(token)}
          />
        </li>
      ))}
    </Stack>
  );
}

interface TokenCardProps {
  token: QueueToken;
  highlighted: boolean;
  onCancel: () => void;
  onReschedule: () => void;
}

/** Whether its holder may still move the booking themselves (the server decides too). */
function movable(token: QueueToken): boolean {
  if (token.kind !== 'booking' || token.status !== 'booked') return false;
  return token.changeUntil === null || Date.parse(token.changeUntil) > Date.now();
}

function TokenCard({ token, highlighted, onCancel, onReschedule }: TokenCardProps) {
  const { t, i18n } = useTranslation('visit');
  const [details, setDetails] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (highlighted) ref.current?.scrollIntoView?.({ block: 'center' });
  }, [highlighted]);

  return (
    <Paper
      ref={ref}
      withBorder
      radius="md"
      p="md"
      aria-current={highlighted ? 'true' : undefined}
      data-testid={`token-${token.id}`}
      style={
        highlighted ? { borderColor: 'var(--mantine-color-brand-7)', borderWidth: 2 } : undefined
      }
    >
      <Stack gap="sm">
        <YourTurn token={token} />
        {liveStatuses.includes(token.status) ? <CallWaiting tokenId={token.id} /> : null}
        {followsSession(token) ? (
          <SessionNotice status={token.sessionStatus} notes={token.sessionNotes} />
        ) : null}
        {highlighted ? (
          <Text size="sm" fw={600} c="brand.9">
            {t('mine.highlighted')}
          </Text>
        ) : null}
        <Stack gap={0}>
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {token.companyName}
          </Text>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {token.counter ? `${token.queueName} · ${token.counter}` : token.queueName}
          </Text>
        </Stack>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Stack gap={0}>
            <Text fw={800} fz={32} lh={1.1}>
              {token.displayNumber}
            </Text>
            <Text size="sm" c="dimmed">
              {t(`token.kind.${token.kind}`)} ·{' '}
              {token.slotStartsAt
                ? formatInstant(token.slotStartsAt, i18n.language)
                : t('mine.joinedAt', { time: formatInstant(token.joinedAt, i18n.language) })}
            </Text>
          </Stack>
          <TokenStatusBadge status={token.status} />
        </Group>
        <div aria-live="polite">
          <TokenFigures token={token} />
        </div>
        <PaymentStatusLine token={token} />
        <TokenAnswers answers={token.answers} />
        {token.kind === 'booking' && liveStatuses.includes(token.status) ? (
          <ChangeRule changeUntil={token.changeUntil} />
        ) : null}
        {token.status === 'pending_payment' ? <PayPanel token={token} resume /> : null}
        <Group gap="sm">
          {token.kind === 'booking' ? (
            <Button
              variant="light"
              size="sm"
              onClick={() => setDetails((open) => !open)}
              aria-expanded={details}
            >
              {details ? t('mine.hideDetails') : t('mine.details')}
            </Button>
          ) : null}
          {liveStatuses.includes(token.status) ? (
            <Button
              component={Link}
              to={new URL(token.statusUrl).pathname}
              variant="subtle"
              size="sm"
              leftSection={<IconMapPin size={16} aria-hidden />}
            >
              {t('mine.statusPage')}
            </Button>
          ) : null}
          {movable(token) ? (
            <Button
              variant="light"
              size="sm"
              onClick={onReschedule}
              aria-label={t('reschedule.openNamed', { number: token.displayNumber })}
            >
              {t('reschedule.open')}
            </Button>
          ) : null}
          {cancellableTokenStatuses.includes(token.status) ? (
            <Button
              variant="default"
              size="sm"
              onClick={onCancel}
              aria-label={t('mine.cancelNamed', { number: token.displayNumber })}
            >
              {t('mine.cancel')}
            </Button>
          ) : null}
        </Group>
        {details ? <BookingDetailsPanel tokenId={token.id} /> : null}
      </Stack>
    </Paper>
  );
}

function BookingDetailsPanel({ tokenId }: { tokenId: string }) {
  const { t, i18n } = useTranslation('visit');
  const details = useBookingDetails(tokenId, true);
  const [downloadError, setDownloadError] = useState<unknown>(null);
  const [downloading, setDownloading] = useState(false);

  if (details.isPending) return <LoadingList rows={1} />;
  if (details.isError) {
    return <LoadError error={details.error} onRetry={() => void details.refetch()} />;
  }
  const d = details.data;
  async function download() {
    setDownloading(true);
    setDownloadError(null);
    try {
      await downloadBookingCalendar(tokenId);
    } catch (error) {
      setDownloadError(error);
    } finally {
      setDownloading(false);
    }
  }
  return (
    <Stack gap={4}>
      <Text fw={600}>{t('mine.detailsWhere', { company: d.companyName, queue: d.queueName })}</Text>
      <Text size="sm">{t('mine.detailsService', { service: d.serviceName })}</Text>
      <Text size="sm">
        {t('mine.detailsWhen', {
          date: formatDay(d.date, i18n.language),
          start: shortTime(d.startTime),
          end: shortTime(d.endTime),
          timezone: d.timezone,
        })}
      </Text>
      <Group>
        <Button
          variant="subtle"
          size="sm"
          leftSection={<IconCalendarPlus size={18} aria-hidden />}
          loading={downloading}
          onClick={() => void download()}
        >
          {t('mine.addToCalendar')}
        </Button>
      </Group>
      {downloadError ? (
        <Notice tone="red" role="alert">
          {visitErrorText(downloadError)}
        </Notice>
      ) : null}
    </Stack>
  );
}

function CancelDialog({ token, onClose }: { token: QueueToken | null; onClose: () => void }) {
  const { t } = useTranslation('visit');
  const cancel = useCancelToken();
  const [done, setDone] = useState<string | null>(null);
  const number = token?.displayNumber ?? '';
  function close() {
    cancel.reset();
    onClose();
  }
  return (
    <>
      <div role="status" aria-live="polite">
        {done ? (
          <Notice tone="gray" withCloseButton onClose={() => setDone(null)}>
            {t('mine.cancelled', { number: done })}
          </Notice>
        ) : null}
      </div>
      <Modal
        opened={token !== null}
        onClose={close}
        title={t('mine.cancelTitle', { number })}
        closeButtonProps={{ 'aria-label': t('mine.keep') }}
      >
        <Stack gap="md">
          <Text>{t('mine.cancelBody')}</Text>
          {token ? <RefundText token={token} /> : null}
          {cancel.error ? (
            <Notice tone="red" role="alert">
              {visitErrorText(cancel.error)}
            </Notice>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              {t('mine.keep')}
            </Button>
            <Button
              color="red.9"
              loading={cancel.isPending}
              onClick={() => {
                if (!token) return;
                cancel.mutate(
                  { tokenId: token.id },
                  {
                    onSuccess: () => {
                      setDone(number);
                      close();
                    },
                  },
                );
              }}
            >
              {t('mine.cancelConfirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

function AssignedSessions() {
  const { t, i18n } = useTranslation('visit');
  const today = todayLocal();
  const sessions = useAssignedSessions(today, true);
  return (
    <Stack gap="sm" component="section" aria-labelledby="assigned-title">
      <Title order={2} id="assigned-title">
        {t('mine.assignedTitle')}
      </Title>
      {sessions.isPending ? <LoadingList rows={1} /> : null}
      {sessions.isError ? (
        <LoadError error={sessions.error} onRetry={() => void sessions.refetch()} />
      ) : null}
      {sessions.data?.length === 0 ? <Text c="dimmed">{t('mine.assignedEmpty')}</Text> : null}
      {sessions.data && sessions.data.length > 0 ? (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {sessions.data.map((session) => {
            const time = `${formatDay(session.date, i18n.language)}, ${shortTime(session.startTime)}–${shortTime(session.endTime)}`;
            const name = session.subQueueName ?? session.queueName;
            return (
              <li key={session.id}>
                <Paper withBorder radius="md" p="sm">
                  <Group justify="space-between" gap="xs">
                    <Stack gap={0}>
                      <Text fw={600}>{name}</Text>
                      <Text size="sm" c="dimmed">
                        {time}
                      </Text>
                    </Stack>
                    <Anchor
                      component={Link}
                      to={buildPath(spaRoutes.adminLiveSession, {
                        subQueueId: session.subQueueId ?? 'all',
                        date: session.date,
                        sessionId: session.id,
                      })}
                      aria-label={t('mine.openLiveNamed', { name, time })}
                    >
                      {t('mine.openLive')}
                    </Anchor>
                  </Group>
                </Paper>
              </li>
            );
          })}
        </Stack>
      ) : null}
    </Stack>
  );
}

/** What cancelling gives back: nothing to refund (unpaid), or the queue's rule applied now. */
function RefundText({ token }: { token: QueueToken }) {
  const { t, i18n } = useTranslation('visit');
  const paid = token.payment?.status === 'paid';
  const queue = useQueue(paid ? token.queueId : null);
  const [now] = useState(() => Date.now());
  if (token.status === 'pending_payment') {
    return <Text size="sm">{t('refund.unpaid')}</Text>;
  }
  const refund = refundOnCancel(token, queue.data, now);
  const notice = (minutes: number) => noticeText(t, minutes);
  let text: string;
  switch (refund.kind) {
    case 'unpaid':
      return null;
    case 'unknown':
      text = t('refund.unknown');
      break;
    case 'none':
      text = t('refund.none');
      break;
    case 'late':
      text = t('refund.late', { notice: notice(refund.noticeMinutes) });
      break;
    case 'amount':
      text = t(refund.percent === 100 ? 'refund.full' : 'refund.part', {
        amount: formatMoney(refund.amountMinor, refund.currency, i18n.language),
        percent: refund.percent,
      });
      break;
    case 'rule':
      text = t('refund.rule', {
        amount: formatMoney(refund.amountMinor, refund.currency, i18n.language),
        percent: refund.percent,
        notice: notice(refund.noticeMinutes),
      });
      break;
  }
  return (
    <Notice tone="blue" data-testid="refund-rule">
      {text}
    </Notice>
  );
}
