import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPrinter, IconTicket } from '@tabler/icons-react';
import type { QueueToken } from '@upnext/contract/tokens';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Logo } from '../../../components/Logo.tsx';
import { Notice } from '../../../components/tones.tsx';
import { useSessionBoard } from '../../../entities/session/board.ts';
import { formatInstant } from '../../../entities/token/format.ts';
import { errorText } from '../../../lib/error-text.ts';
import { useQrSvg } from '../../../lib/qr.ts';
import { useWalkInForm } from '../hooks/useWalkInForm.ts';
import classes from './Kiosk.module.css';
import { WalkInFields } from './WalkInFields.tsx';

/** How long a ticket stays on screen before the kiosk is ready for the next person. */
const KIOSK_RESET_SECONDS = 45;

/**
 * A reception tablet where walk-ins take a number themselves: a name (and optionally a phone
 * for a text when their turn comes), then a ticket to print or scan, whose QR code opens the
 * token's status link. No navigation leads anywhere else; after a while it starts over.
 */
export function Kiosk({ sessionId }: { sessionId: string }) {
  const { t } = useTranslation('live');
  const board = useSessionBoard(sessionId, { errorShownInline: true });
  const [ticket, setTicket] = useState<QueueToken | null>(null);
  const data = board.data;

  return (
    <div className={classes.kiosk}>
      <Group justify="space-between" wrap="nowrap" className={classes.top}>
        <Logo />
        {data ? (
          <Text fw={600} className={classes.place}>
            {data.companyName} · {data.queueName}
          </Text>
        ) : null}
      </Group>
      <Stack className={classes.body} gap="lg">
        {ticket && data ? (
          <Ticket ticket={ticket} queueName={data.queueName} onDone={() => setTicket(null)} />
        ) : data && data.status !== 'open' ? (
          <Notice tone="yellow" title={<Title order={1}>{t('kiosk.closedTitle')}</Title>}>
            {t('kiosk.closedBody')}
          </Notice>
        ) : data ? (
          <KioskForm
            sessionId={sessionId}
            queueId={data.queueId}
            country={data.country}
            onIssued={setTicket}
          />
        ) : board.isError ? (
          <Notice tone="red" role="alert" title={<Title order={1}>{t('kiosk.unavailable')}</Title>}>
            {errorText(board.error)}
          </Notice>
        ) : (
          <Title order={1}>{t('kiosk.loading')}</Title>
        )}
      </Stack>
    </div>
  );
}

function KioskForm({
  sessionId,
  queueId,
  country,
  onIssued,
}: {
  sessionId: string;
  queueId: string;
  country: string;
  onIssued: (token: QueueToken) => void;
}) {
  const { t } = useTranslation('live');
  const walkIn = useWalkInForm(sessionId, queueId, country, onIssued);
  const { submit, pending, refusal } = walkIn;
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} className={classes.card}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Title order={1}>{t('kiosk.title')}</Title>
          <Text c="dimmed">{t('kiosk.intro')}</Text>
          <WalkInFields
            form={walkIn}
            size="lg"
            labels={{
              name: t('kiosk.name'),
              phone: t('kiosk.phone'),
              phoneHint: t('kiosk.phoneHint'),
            }}
          />
          <Button
            type="submit"
            size="xl"
            leftSection={<IconTicket size={22} aria-hidden />}
            loading={pending}
          >
            {t('kiosk.submit')}
          </Button>
          {refusal ? (
            <Notice tone="red" role="alert">
              {errorText(refusal)}
            </Notice>
          ) : null}
        </Stack>
      </form>
    </Paper>
  );
}

/** The printed ticket: number, queue, time taken, and the status link's QR code. */
function Ticket({
  ticket,
  queueName,
  onDone,
}: {
  ticket: QueueToken;
  queueName: string;
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation('live');
  const qr = useQrSvg(ticket.statusUrl, 240);
  const [left, setLeft] = useState(KIOSK_RESET_SECONDS);
  useEffect(() => {
    const timer = window.setInterval(() => setLeft((seconds) => seconds - 1), 1000);
    return () => window.clearInterval(timer);
  }, []);
  useEffect(() => {
    if (left <= 0) onDone();
  }, [left, onDone]);

  return (
    <Stack gap="md" align="center">
      <Paper withBorder radius="lg" p="xl" className={classes.ticket} data-testid="kiosk-ticket">
        <Stack gap="xs" align="center" ta="center">
          <Text fw={600}>{queueName}</Text>
          <Title order={1} className={classes.number} data-testid="ticket-number">
            {ticket.displayNumber}
          </Title>
          <Text size="sm">{formatInstant(ticket.joinedAt, i18n.language)}</Text>
          {qr ? (
            <img
              className={classes.qr}
              src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(qr)}`}
              alt={t('kiosk.qrAlt')}
              data-testid="ticket-qr"
              width={200}
              height={200}
            />
          ) : null}
          <Text size="sm">{t('kiosk.scan')}</Text>
        </Stack>
      </Paper>
      <Text className={classes.screenOnly} aria-live="polite">
        {t('kiosk.next', { count: Math.max(left, 0) })}
      </Text>
      <Group className={classes.screenOnly}>
        <Button
          size="lg"
          leftSection={<IconPrinter size={20} aria-hidden />}
          onClick={() => window.print()}
        >
          {t('kiosk.print')}
        </Button>
        <Button size="lg" variant="default" onClick={onDone}>
          {t('kiosk.done')}
        </Button>
      </Group>
    </Stack>
  );
}
