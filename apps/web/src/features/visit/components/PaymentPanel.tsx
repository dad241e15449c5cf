import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconClockHour4, IconCreditCard } from '@tabler/icons-react';
import { PAYMENT_HOLD_MINUTES, type TokenPayment } from '@upnext/contract/payments';
import type { QueueToken } from '@upnext/contract/tokens';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Notice, Tag } from '../../../components/tones.tsx';
import { formatMoney } from '../../../entities/payment/format.ts';
import { i18n } from '../../../lib/i18n.ts';
import { leaveApp } from '../../../lib/leave-app.ts';
import { useCreatePayment } from '../api/createPayment.ts';
import { useNow } from '../hooks/useNow.ts';
import { visitErrorText } from './visitError.ts';

/** A queue's price, when it has one (the token's payment knows better once it exists). */
export interface Price {
  amountMinor: number;
  currency: string;
}

/** "14:05" left of a hold; "0:00" once it is over. */
function remaining(untilIso: string, now: number): { text: string; over: boolean } {
  const seconds = Math.max(0, Math.ceil((new Date(untilIso).getTime() - now) / 1000));
  const text = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  return { text, over: seconds === 0 };
}

/**
 * A `pending_payment` token: what is to pay, how long the place is held, an optional promotion
 * code and "Pay £25.00", which opens the checkout (the server answers the open one again) and
 * sends the browser there. Refusals are said here, in the visit's words.
 */
export function PayPanel({
  token,
  price,
  resume = false,
}: {
  token: QueueToken;
  price?: Price | null;
  /** In a list (My sessions): "Pay now" rather than the amount on the button. */
  resume?: boolean;
}) {
  const { t, i18n } = useTranslation('visit');
  const pay = useCreatePayment();
  const [code, setCode] = useState('');
  const [withCode, setWithCode] = useState(false);
  const leaving = useRef(false);
  const [redirecting, setRedirecting] = useState(false);
  const payment = token.payment;
  const amount = payment
    ? { amountMinor: payment.amountMinor, currency: payment.currency }
    : (price ?? null);
  const now = useNow(Boolean(payment?.holdExpiresAt));
  const left = payment?.holdExpiresAt ? remaining(payment.holdExpiresAt, now) : null;
  const money = amount ? formatMoney(amount.amountMinor, amount.currency, i18n.language) : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (leaving.current || pay.isPending) return;
    const promotionCode = code.trim();
    pay.mutate(
      { tokenId: token.id, ...(withCode && promotionCode ? { promotionCode } : {}) },
      {
        onSuccess: (checkout) => {
          leaving.current = true;
          setRedirecting(true);
          leaveApp.to(checkout.checkoutUrl);
        },
      },
    );
  }

  return (
    <Stack gap="sm" component="section" aria-label={t('pay.title')} data-testid="pay-panel">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text fw={700}>{t('pay.title')}</Text>
        {money ? (
          <Text fw={800} fz="lg" data-testid="pay-amount">
            {money}
          </Text>
        ) : null}
      </Group>
      {left ? (
        <Group gap={6} wrap="nowrap" align="flex-start">
          <IconClockHour4 size={18} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
          {left.over ? (
            <Text size="sm" c="red.9" role="status">
              {t('pay.holdOver')}
            </Text>
          ) : (
            <Text size="sm" data-testid="pay-hold">
              {t('pay.holdLeft', { time: left.text })}
            </Text>
          )}
        </Group>
      ) : (
        <Text size="sm">{t('pay.holdRule', { minutes: PAYMENT_HOLD_MINUTES })}</Text>
      )}
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {withCode ? (
            <TextInput
              label={t('pay.promotionLabel')}
              description={t('pay.promotionDescription')}
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
              autoCapitalize="characters"
              autoComplete="off"
              maxLength={32}
              data-autofocus
            />
          ) : (
            <Anchor
              component="button"
              type="button"
              size="sm"
              w="fit-content"
              onClick={() => setWithCode(true)}
            >
              {t('pay.havePromotion')}
            </Anchor>
          )}
          {pay.error ? (
            <Notice tone="red" role="alert" data-testid="pay-error">
              {visitErrorText(pay.error)}
            </Notice>
          ) : null}
          <Group>
            <Button
              type="submit"
              size="md"
              leftSection={<IconCreditCard size={18} aria-hidden />}
              loading={pay.isPending || redirecting}
              disabled={left?.over}
            >
              {money && !resume ? t('pay.payAmount', { amount: money }) : t('pay.payNow')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}

type PaidState = Pick<
  TokenPayment,
  'status' | 'amountMinor' | 'currency' | 'refundStatus' | 'refundedMinor'
>;

/** "Paid £25.00", "Refund pending", "Refunded £25.00", "Refunded £12.50 of £25.00", ... */
export function paymentLabel(
  payment: PaidState,
  locale: string,
): { label: string; tone: 'teal' | 'yellow' | 'gray' | 'red' } {
  const money = (minor: number) => formatMoney(minor, payment.currency, locale);
  const paid = money(payment.amountMinor);
  switch (payment.refundStatus) {
    case 'pending':
      return { label: i18n.t('visit:pay.refundPending'), tone: 'yellow' };
    case 'failed':
      return { label: i18n.t('visit:pay.refundFailed'), tone: 'red' };
    case 'succeeded':
      return {
        label:
          payment.refundedMinor >= payment.amountMinor
            ? i18n.t('visit:pay.refunded', { amount: money(payment.refundedMinor) })
            : i18n.t('visit:pay.refundedPart', { amount: money(payment.refundedMinor), paid }),
        tone: 'gray',
      };
    default:
      return { label: i18n.t('visit:pay.paid', { amount: paid }), tone: 'teal' };
  }
}

/** Paid, refunded, refund pending or failed: one line beside a token that was paid for. */
export function PaymentStatusLine({ token }: { token: QueueToken }) {
  const { i18n: current } = useTranslation('visit');
  const payment = token.payment;
  if (payment?.status !== 'paid') return null;
  const { label, tone } = paymentLabel(payment, current.language);
  return (
    <Group gap="xs" data-testid="payment-status">
      <Tag tone={tone} size="lg" tt="none">
        {label}
      </Tag>
    </Group>
  );
}
