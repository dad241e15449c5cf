import { Button, Group, Loader, Paper, Stack, Table, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCircleCheck,
  IconClockHour4,
  IconLogin,
  IconReceipt,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import type { Payment } from '@upnext/contract/payments';
import { joinPath, spaRoutes } from '@upnext/contract/routes';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyBlock, LoadFailed, LoadingList } from '../../../components/StateViews.tsx';
import { Notice } from '../../../components/tones.tsx';
import { usePaymentOutcome } from '../../../entities/payment/api.ts';
import { formatMoney } from '../../../entities/payment/format.ts';
import { formatInstant } from '../../../entities/token/format.ts';
import { useCurrentUser } from '../../../lib/auth-session.ts';
import { errorCode } from '../../../lib/error-text.ts';
import { i18n } from '../../../lib/i18n.ts';
import { useQueue } from '../api/getQueue.ts';
import { visitKeys } from '../api/keys.ts';
import { useLiveTokens } from '../hooks/useLiveTokens.ts';
import { LiveTokenCard } from './LiveTokenCard.tsx';
import { paymentLabel } from './PaymentPanel.tsx';
import { visitErrorText } from './visitError.ts';

interface PaymentResultProps {
  /** `?paymentId=` of the return URL; null when the link has none. */
  paymentId: string | null;
  /** Open the app's sign-in dialog (the page owns it). */
  requestSignIn: () => void;
}

/**
 * `/payment-success`: the REAL outcome of a visit's payment, read from the server (never from
 * the return URL). While the provider's webhook has not arrived the payment is `pending`: the
 * page follows the visitor's token live (its user and session topics) and asks for the payment
 * again whenever the token changes; a bounded backoff (entities/payment/api.ts) is the fallback. Paid:
 * the live token and a receipt. Failed, cancelled or expired: what happened and a way back.
 */
export function PaymentResult({ paymentId, requestSignIn }: PaymentResultProps) {
  const { t } = useTranslation('visit');
  const user = useCurrentUser();
  const { query: payment, pollsLeft } = usePaymentOutcome(
    paymentId,
    visitKeys.payment(paymentId ?? ''),
  );

  if (!paymentId) {
    return (
      <Stack gap="lg">
        <Title order={1}>{t('result.noPaymentTitle')}</Title>
        <EmptyBlock
          order={2}
          icon={<IconReceipt aria-hidden />}
          title={t('result.noPaymentHeading')}
          body={t('result.noPaymentBody')}
          action={
            <Button component={Link} to={spaRoutes.adminMySessions}>
              {t('token.mySessions')}
            </Button>
          }
        />
      </Stack>
    );
  }
  if (!user) {
    return (
      <Stack gap="md" align="flex-start">
        <Title order={1}>{t('result.signInTitle')}</Title>
        <Text>{t('result.signInBody')}</Text>
        <Button leftSection={<IconLogin size={18} aria-hidden />} onClick={requestSignIn}>
          {t('result.signIn')}
        </Button>
      </Stack>
    );
  }
  if (payment.isPending) {
    return (
      <Stack gap="md">
        <Title order={1}>{t('result.loadingTitle')}</Title>
        <LoadingList rows={2} />
      </Stack>
    );
  }
  if (payment.isError) {
    const unknown = errorCode(payment.error) === 'payment_not_found';
    return (
      <Stack gap="md">
        <Title order={1}>{t('result.errorTitle')}</Title>
        <LoadFailed
          message={visitErrorText(payment.error)}
          {...(unknown ? {} : { onRetry: () => void payment.refetch() })}
        />
        <Group>
          <Button component={Link} to={spaRoutes.adminMySessions} variant="default">
            {t('token.mySessions')}
          </Button>
        </Group>
      </Stack>
    );
  }
  return (
    <Outcome
      payment={payment.data}
      pollsLeft={pollsLeft}
      onCheckAgain={() => void payment.refetch()}
      checking={payment.isFetching}
    />
  );
}

interface OutcomeProps {
  payment: Payment;
  /** False once the backoff gave up: the page then offers to check again by hand. */
  pollsLeft: boolean;
  checking: boolean;
  onCheckAgain: () => void;
}

function Outcome({ payment, pollsLeft, checking, onCheckAgain }: OutcomeProps) {
  const { t } = useTranslation('visit');
  const queryClient = useQueryClient();
  const { tokens } = useLiveTokens();
  const live = tokens.data?.find((token) => token.id === payment.token?.id);

  // The token's live events (paid: it joins the line; declined or expired: it is released)
  // say the payment has settled: ask for it again then, rather than waiting for the backoff.
  const seen = useRef(live?.status);
  useEffect(() => {
    if (!live || seen.current === live.status) return;
    const first = seen.current === undefined;
    seen.current = live.status;
    // The first answer of the tokens is no change: the payment was read just now.
    if (!first && payment.status === 'pending') {
      void queryClient.invalidateQueries({ queryKey: visitKeys.payment(payment.id) });
    }
  }, [live, payment.status, payment.id, queryClient]);

  if (payment.status === 'pending') {
    return (
      <Stack gap="lg">
        <Group gap="sm" wrap="nowrap" align="center">
          <Loader size="sm" aria-hidden />
          <Title order={1}>{t('result.pendingTitle')}</Title>
        </Group>
        <Text role="status">{t('result.pendingBody')}</Text>
        {pollsLeft ? null : (
          <Notice tone="yellow" icon={<IconClockHour4 aria-hidden />}>
            <Stack gap="xs" align="flex-start">
              {t('result.pendingSlow')}
              <Button size="xs" variant="white" onClick={onCheckAgain} loading={checking}>
                {t('result.checkAgain')}
              </Button>
            </Stack>
          </Notice>
        )}
        {live ? <LiveTokenCard token={live} /> : null}
      </Stack>
    );
  }

  if (payment.status === 'paid') {
    const released = live ? live.status === 'cancelled' : payment.token?.status === 'cancelled';
    return (
      <Stack gap="lg">
        <Stack gap="xs">
          <ThemeIcon size={56} radius="xl" variant="light" aria-hidden>
            <IconCircleCheck size={34} />
          </ThemeIcon>
          <Title order={1}>{t('result.paidTitle')}</Title>
        </Stack>
        <Text>
          {released
            ? t('result.paidReleased')
            : t('result.paidBody', { company: payment.companyName })}
        </Text>
        {live ? <LiveTokenCard token={live} /> : null}
        <Receipt payment={payment} />
        <Group gap="sm">
          <Button
            component={Link}
            to={`${spaRoutes.adminMySessions}?token=${payment.token?.id ?? ''}`}
          >
            {t('token.mySessions')}
          </Button>
        </Group>
      </Stack>
    );
  }

  return <NotPaid payment={payment} />;
}

/** Failed, cancelled or expired: nothing was charged, nothing is held; a way back to the queue. */
function NotPaid({ payment }: { payment: Payment }) {
  const { t } = useTranslation('visit');
  const queue = useQueue(payment.token?.queueId ?? null);
  const back = queue.data ? joinPath(queue.data.joinCode) : spaRoutes.join;
  const status = payment.status as 'failed' | 'cancelled' | 'expired';
  return (
    <Stack gap="lg">
      <Stack gap="xs">
        <ThemeIcon size={56} radius="xl" variant="light" color="red" aria-hidden>
          <IconAlertTriangle size={32} />
        </ThemeIcon>
        <Title order={1}>{t(`result.${status}Title`)}</Title>
      </Stack>
      <Notice tone={status === 'failed' ? 'red' : 'gray'} role="alert">
        <Stack gap={4}>
          {status === 'failed' ? (
            <Text fw={600} data-testid="failure-reason">
              {failureText(payment.failureReason)}
            </Text>
          ) : null}
          <Text>{t(`result.${status}Body`)}</Text>
        </Stack>
      </Notice>
      <Group gap="sm">
        <Button component={Link} to={back}>
          {t('result.backToQueue')}
        </Button>
        <Button component={Link} to={spaRoutes.adminMySessions} variant="default">
          {t('token.mySessions')}
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * The provider's reason in the payer's words: the known codes (`card_declined`, ...) worded
 * here, a sentence shown as it is, anything else as the general refusal.
 */
function failureText(reason: string | null): string {
  if (reason && /^[a-z_]+$/.test(reason)) {
    return i18n.exists(`visit:result.reason.${reason}`)
      ? i18n.t(`visit:result.reason.${reason}`)
      : i18n.t('visit:result.reason.other');
  }
  return reason ?? i18n.t('visit:result.reason.other');
}

/** What was paid, to whom, for what, and when: the receipt's summary (the email has the rest). */
function Receipt({ payment }: { payment: Payment }) {
  const { t, i18n } = useTranslation('visit');
  const money = (minor: number) => formatMoney(minor, payment.currency, i18n.language);
  const rows: Array<[string, string]> = [
    [t('result.receipt.merchant'), payment.companyName],
    ...(payment.token
      ? ([
          [
            t('result.receipt.for'),
            t('result.receipt.forValue', {
              queue: payment.token.queueName,
              number: payment.token.displayNumber,
            }),
          ],
        ] as Array<[string, string]>)
      : []),
    ...(payment.promotionCode
      ? ([
          [t('result.receipt.price'), money(payment.listAmountMinor)],
          [t('result.receipt.promotion'), payment.promotionCode],
        ] as Array<[string, string]>)
      : []),
    [t('result.receipt.amount'), money(payment.amountMinor)],
    ...(payment.paidAt
      ? ([[t('result.receipt.paidAt'), formatInstant(payment.paidAt, i18n.language)]] as Array<
          [string, string]
        >)
      : []),
    [t('result.receipt.reference'), payment.id],
  ];
  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'lg' }}
      component="section"
      aria-labelledby="receipt-title"
    >
      <Title order={2} size="h4" id="receipt-title" mb="sm">
        {t('result.receipt.title')}
      </Title>
      <Table variant="vertical" layout="fixed" withRowBorders={false} data-testid="receipt">
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w="38%" fw={500} c="dimmed">
                {label}
              </Table.Th>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {payment.refundStatus ? (
        <Text size="sm" mt="sm" fw={600} data-testid="receipt-refund">
          {paymentLabel(payment, i18n.language).label}
        </Text>
      ) : null}
      <Text size="sm" c="dimmed" mt="xs">
        {t('result.receipt.email')}
      </Text>
    </Paper>
  );
}
