import { Button, Group, Loader, Stack, Table, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCircleCheck,
  IconClockHour4,
  IconLogin,
  IconReceipt,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import type { Payment } from '@upnext/contract/payments';
import { companyBillingPath } from '@upnext/contract/routes';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyBlock, LoadFailed, LoadingList } from '../../../components/StateViews.tsx';
import { Notice } from '../../../components/tones.tsx';
import { usePaymentOutcome } from '../../../entities/payment/api.ts';
import { formatMoney } from '../../../entities/payment/format.ts';
import { useCurrentUser } from '../../../lib/auth-session.ts';
import { errorCode, errorText } from '../../../lib/error-text.ts';
import { useCompanyBilling } from '../api/getCompanyBilling.ts';
import { billingKeys } from '../api/keys.ts';
import { formatDateTime, formatDay, planName } from './format.ts';

interface PlanPaymentResultProps {
  /** `?paymentId=` of the return URL; null when the link has none. */
  paymentId: string | null;
  /** Open the app's sign-in dialog (the page owns it). */
  requestSignIn: () => void;
}

/**
 * `/admin/payment-success`: the REAL outcome of a plan payment, read from the server (never from
 * the return URL). While the provider's webhook has not arrived the payment is `pending` and is
 * asked for again with a bounded backoff (entities/payment/api.ts). Paid: the new plan and its
 * renewal date. Failed, cancelled or expired: what happened, and back to Billing.
 */
export function PlanPaymentResult({ paymentId, requestSignIn }: PlanPaymentResultProps) {
  const { t } = useTranslation('billing');
  const user = useCurrentUser();
  const { query: payment, pollsLeft } = usePaymentOutcome(
    paymentId,
    billingKeys.payment(paymentId ?? ''),
  );

  if (!paymentId) {
    return (
      <Stack gap="lg">
        <Title order={1}>{t('result.noPaymentTitle')}</Title>
        <EmptyBlock
          order={2}
          icon={<IconReceipt aria-hidden />}
          title={t('result.noPaymentTitle')}
          body={t('result.noPaymentBody')}
          action={
            <Button component={Link} to={companyBillingPath}>
              {t('result.toBilling')}
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
          message={errorText(payment.error)}
          {...(unknown ? {} : { onRetry: () => void payment.refetch() })}
        />
        <Group>
          <Button component={Link} to={companyBillingPath} variant="default">
            {t('result.toBilling')}
          </Button>
        </Group>
      </Stack>
    );
  }
  const data = payment.data;
  if (data.status === 'pending') {
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
              <Button
                size="xs"
                variant="white"
                onClick={() => void payment.refetch()}
                loading={payment.isFetching}
              >
                {t('result.checkAgain')}
              </Button>
            </Stack>
          </Notice>
        )}
      </Stack>
    );
  }
  if (data.status === 'paid') return <Paid payment={data} />;
  return <NotPaid payment={data} />;
}

function Paid({ payment }: { payment: Payment }) {
  const { t, i18n } = useTranslation('billing');
  const queryClient = useQueryClient();
  const billing = useCompanyBilling(payment.companyId);
  // The plan changed with the payment: read the company's billing afresh for its renewal date.
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: billingKeys.billing(payment.companyId) });
    void queryClient.invalidateQueries({ queryKey: billingKeys.payments(payment.companyId) });
  }, [queryClient, payment.companyId]);
  const plan = planName(payment.plan ?? billing.data?.plan ?? 'pro');
  const timezone = billing.data?.timezone ?? 'UTC';
  const renewsAt = billing.data?.planRenewsAt;
  return (
    <Stack gap="lg">
      <Stack gap="xs">
        <ThemeIcon size={56} radius="xl" variant="light" aria-hidden>
          <IconCircleCheck size={34} />
        </ThemeIcon>
        <Title order={1}>{t('result.paidTitle', { plan })}</Title>
      </Stack>
      <Text>
        {t('result.paidBody', { company: payment.companyName, plan })}{' '}
        {renewsAt ? t('result.renews', { date: formatDay(renewsAt, timezone) }) : null}
      </Text>
      <Table variant="vertical" layout="fixed" withRowBorders={false} data-testid="plan-receipt">
        <Table.Tbody>
          <Table.Tr>
            <Table.Th w="38%" fw={500} c="dimmed">
              {t('result.amount')}
            </Table.Th>
            <Table.Td>{formatMoney(payment.amountMinor, payment.currency, i18n.language)}</Table.Td>
          </Table.Tr>
          {payment.paidAt ? (
            <Table.Tr>
              <Table.Th fw={500} c="dimmed">
                {t('result.paidAt')}
              </Table.Th>
              <Table.Td>{formatDateTime(payment.paidAt, timezone)}</Table.Td>
            </Table.Tr>
          ) : null}
          <Table.Tr>
            <Table.Th fw={500} c="dimmed">
              {t('result.reference')}
            </Table.Th>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{payment.id}</Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      <Group>
        <Button component={Link} to={companyBillingPath}>
          {t('result.toBilling')}
        </Button>
      </Group>
    </Stack>
  );
}

function NotPaid({ payment }: { payment: Payment }) {
  const { t } = useTranslation('billing');
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
          {status === 'failed' && payment.failureReason ? (
            <Text fw={600} data-testid="failure-reason">
              {t('result.reasonLabel', { reason: payment.failureReason.replaceAll('_', ' ') })}
            </Text>
          ) : null}
          <Text>{t(`result.${status}Body`)}</Text>
        </Stack>
      </Notice>
      <Group>
        <Button component={Link} to={companyBillingPath}>
          {t('result.toBilling')}
        </Button>
      </Group>
    </Stack>
  );
}
