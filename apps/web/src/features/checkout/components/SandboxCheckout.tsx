import {
  Anchor,
  Box,
  Button,
  Container,
  CopyButton,
  Divider,
  Group,
  Loader,
  Modal,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowLeft,
  IconCheck,
  IconCircleCheck,
  IconCopy,
  IconCreditCard,
  IconFlask,
  IconLock,
  IconShieldCheck,
} from '@tabler/icons-react';
import { type SandboxCheckout as Checkout, sandboxTestCards } from '@upnext/contract/payments';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Notice } from '../../../components/tones.tsx';
import { formatMoney } from '../../../entities/payment/format.ts';
import { formatTime } from '../../../entities/token/format.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { errorCode, errorText } from '../../../lib/error-text.ts';
import { leaveApp } from '../../../lib/leave-app.ts';
import { useCancelSandboxCheckout } from '../api/cancelSandboxCheckout.ts';
import { useConfirmSandboxCheckout } from '../api/confirmSandboxCheckout.ts';
import { useSandboxCheckout } from '../api/getSandboxCheckout.ts';
import { usePaySandboxCheckout } from '../api/paySandboxCheckout.ts';
import {
  type CardErrors,
  type CardField,
  type CardValues,
  checkCard,
  fieldOrder,
  formatCardNumber,
  formatCvc,
  formatExpiry,
  serverFieldErrors,
} from './card.ts';
import classes from './SandboxCheckout.module.css';

/** A sample expiry and CVC for the test cards (any future date and 3 digits do). */
const SAMPLE = { expiry: '12/34', cvc: '123' };

/**
 * The built-in sandbox checkout (`/sandbox/checkout/{checkoutId}`, the embedded default payment
 * provider, never in production): a card checkout of our own. It shows who is paid, for what
 * and how much, takes a test card (`sandboxTestCards`), runs the extra confirmation step, says
 * a decline plainly, and sends the payer back to the merchant: `successUrl` once the checkout
 * settled (that page reads the real outcome), `cancelUrl` when they leave.
 */
export function SandboxCheckout({ checkoutId }: { checkoutId: string }) {
  const { t } = useTranslation('checkout');
  const checkout = useSandboxCheckout(checkoutId);

  return (
    <Box className={classes.page}>
      <Container size={520} px="md" py={{ base: 'md', sm: 48 }}>
        <Stack gap="md">
          <Notice
            tone="yellow"
            icon={<IconFlask aria-hidden />}
            title={t('sandbox.title')}
            role="note"
            data-testid="sandbox-banner"
          >
            {t('sandbox.body')}
          </Notice>
          {checkout.data ? (
            <CheckoutBody checkout={checkout.data} />
          ) : (
            <NoCheckout error={checkout.isError ? checkout.error : null} />
          )}
          <Group justify="center" gap={6} c="dimmed">
            <IconLock size={14} aria-hidden />
            <Text size="xs">{t('footer')}</Text>
          </Group>
        </Stack>
      </Container>
    </Box>
  );
}

/** Loading, or why there is no checkout to show (one heading element for both). */
function NoCheckout({ error }: { error: unknown }) {
  const { t } = useTranslation('checkout');
  const code = errorCode(error);
  const known = code === 'checkout_not_found' || code === 'payments_unavailable';
  return (
    <Paper withBorder radius="lg" p="lg" aria-busy={error ? undefined : 'true'}>
      <Title order={1} size="h3" mb="md">
        {known ? t(`unavailable.${code}.title`) : t('title')}
      </Title>
      {error ? (
        <Text role="alert">{known ? t(`unavailable.${code}.body`) : errorText(error)}</Text>
      ) : (
        <Stack gap="sm" role="status" aria-label={t('loading')}>
          <Skeleton height={24} width="60%" />
          <Skeleton height={40} />
          <Skeleton height={40} />
        </Stack>
      )}
    </Paper>
  );
}

/** Who is paid, for what, how much: the top of every state of the checkout. */
function Summary({ checkout }: { checkout: Checkout }) {
  const { t, i18n } = useTranslation('checkout');
  const amount = formatMoney(checkout.amountMinor, checkout.currency, i18n.language);
  return (
    <Stack gap={4}>
      <Text size="sm" c="dimmed" fw={600} className={classes.wrap}>
        {t('payTo', { merchant: checkout.merchantName })}
      </Text>
      <Text fz={36} fw={800} lh={1.1} data-testid="checkout-amount">
        {checkout.mode === 'subscription' ? t('perMonth', { amount }) : amount}
      </Text>
      <Text className={classes.wrap}>{checkout.description}</Text>
    </Stack>
  );
}

function CheckoutBody({ checkout }: { checkout: Checkout }) {
  const { t } = useTranslation('checkout');
  const cancel = useCancelSandboxCheckout();
  const [leaving, setLeaving] = useState(false);

  function leave() {
    setLeaving(true);
    // Tell the sandbox first (it releases the hold at once); go back whatever it answers.
    cancel.mutate(checkout.checkoutId, { onSettled: () => leaveApp.to(checkout.cancelUrl) });
  }

  const back = (
    <Anchor
      component="button"
      type="button"
      onClick={leave}
      disabled={leaving}
      className={classes.back}
    >
      <Group gap={4} wrap="nowrap">
        <IconArrowLeft size={16} aria-hidden />
        <span>{t('returnTo', { merchant: checkout.merchantName })}</span>
      </Group>
    </Anchor>
  );

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} shadow="sm">
      <Stack gap="lg">
        {checkout.status === 'open' || checkout.status === 'requires_confirmation' ? back : null}
        <Summary checkout={checkout} />
        <Divider />
        {checkout.status === 'open' || checkout.status === 'requires_confirmation' ? (
          <>
            <CardForm checkout={checkout} />
            <ConfirmStep checkout={checkout} />
          </>
        ) : null}
        {checkout.status === 'paid' ? <Paid checkout={checkout} /> : null}
        {checkout.status === 'failed' ? <Declined checkout={checkout} /> : null}
        {checkout.status === 'cancelled' || checkout.status === 'expired' ? (
          <Closed checkout={checkout} />
        ) : null}
      </Stack>
    </Paper>
  );
}

function CardForm({ checkout }: { checkout: Checkout }) {
  const { t, i18n } = useTranslation('checkout');
  const pay = usePaySandboxCheckout();
  const [values, setValues] = useState<CardValues>({ number: '', expiry: '', cvc: '', name: '' });
  const [errors, setErrors] = useState<CardErrors>({});
  const refs = {
    number: useRef<HTMLInputElement>(null),
    expiry: useRef<HTMLInputElement>(null),
    cvc: useRef<HTMLInputElement>(null),
    name: useRef<HTMLInputElement>(null),
  } satisfies Record<CardField, unknown>;
  const amount = formatMoney(checkout.amountMinor, checkout.currency, i18n.language);
  const processing = pay.isPending || checkout.status === 'requires_confirmation';
  // A refusal that names no field (checkout closed, sandbox off): said above the button.
  const formError =
    pay.error && !(pay.error instanceof ApiError && serverFieldErrors[pay.error.code])
      ? pay.error
      : null;

  function set(field: CardField, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  }

  // Focus moves to the first field in error once it can take focus (fields are disabled while
  // the payment is processing, so a refusal's focus waits for the render that enables them).
  const [focusRequest, setFocusRequest] = useState<{ field: CardField } | null>(null);
  useEffect(() => {
    if (!focusRequest || processing) return;
    refs[focusRequest.field].current?.focus();
    setFocusRequest(null);
  }, [focusRequest, processing, refs]);

  function focusFirst(found: CardErrors) {
    const first = fieldOrder.find((field) => found[field]);
    if (first) setFocusRequest({ field: first });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (processing) return;
    const found = checkCard(values, new Date());
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusFirst(found);
      return;
    }
    pay.mutate(
      { checkoutId: checkout.checkoutId, ...values },
      {
        onError: (error) => {
          const field = error instanceof ApiError ? serverFieldErrors[error.code] : undefined;
          if (!field) return;
          const problem = field === 'number' ? 'numberInvalid' : `${field}Invalid`;
          const next = { [field]: problem } as CardErrors;
          setErrors(next);
          focusFirst(next);
        },
      },
    );
  }

  function fillCard(number: string) {
    setValues((current) => ({
      number: formatCardNumber(number),
      expiry: current.expiry || SAMPLE.expiry,
      cvc: current.cvc || SAMPLE.cvc,
      name: current.name || t('sampleName'),
    }));
    setErrors({});
    pay.reset();
    refs.number.current?.focus();
  }

  const message = (field: CardField) => {
    const problem = errors[field];
    if (!problem) return undefined;
    if (problem === 'numberInvalid' && pay.error instanceof ApiError && pay.error.fromServer) {
      return t('errors.numberUnknown');
    }
    return t(`errors.${problem}`);
  };

  return (
    <Stack gap="lg">
      <form onSubmit={submit} noValidate aria-labelledby="card-title">
        <Stack gap="md">
          <Title order={1} size="h4" id="card-title">
            {t('cardTitle')}
          </Title>
          <TextInput
            ref={refs.number}
            label={t('fields.number')}
            placeholder="1234 1234 1234 1234"
            inputMode="numeric"
            autoComplete="cc-number"
            name="cardnumber"
            value={values.number}
            onChange={(event) => set('number', formatCardNumber(event.currentTarget.value))}
            error={message('number')}
            leftSection={<IconCreditCard size={18} aria-hidden />}
            disabled={processing}
            required
          />
          <SimpleGrid cols={2} spacing="md">
            <TextInput
              ref={refs.expiry}
              label={t('fields.expiry')}
              placeholder={t('fields.expiryPlaceholder')}
              inputMode="numeric"
              autoComplete="cc-exp"
              name="exp-date"
              value={values.expiry}
              onChange={(event) =>
                set('expiry', formatExpiry(event.currentTarget.value, values.expiry))
              }
              error={message('expiry')}
              disabled={processing}
              required
            />
            <TextInput
              ref={refs.cvc}
              label={t('fields.cvc')}
              placeholder="123"
              inputMode="numeric"
              autoComplete="cc-csc"
              name="cvc"
              value={values.cvc}
              onChange={(event) => set('cvc', formatCvc(event.currentTarget.value))}
              error={message('cvc')}
              disabled={processing}
              required
            />
          </SimpleGrid>
          <TextInput
            ref={refs.name}
            label={t('fields.name')}
            autoComplete="cc-name"
            name="ccname"
            value={values.name}
            onChange={(event) => set('name', event.currentTarget.value)}
            error={message('name')}
            disabled={processing}
            maxLength={100}
            required
          />
          {formError ? (
            <Notice tone="red" role="alert" icon={<IconAlertTriangle aria-hidden />}>
              {errorText(formError)}
            </Notice>
          ) : null}
          <Button
            type="submit"
            size="lg"
            fullWidth
            loading={processing}
            loaderProps={{ type: 'dots' }}
            leftSection={<IconLock size={18} aria-hidden />}
          >
            {t('pay', { amount })}
          </Button>
          <div role="status" aria-live="polite" className={classes.status}>
            {processing ? t('processing') : ''}
          </div>
          <Text size="xs" c="dimmed" ta="center">
            {t('closesAt', { time: formatTime(checkout.expiresAt) })}
          </Text>
        </Stack>
      </form>
      <TestCards onUse={fillCard} disabled={processing} />
    </Stack>
  );
}

/** The documented test cards, one click to fill the form or copy the number. */
function TestCards({ onUse, disabled }: { onUse: (number: string) => void; disabled: boolean }) {
  const { t } = useTranslation('checkout');
  return (
    <Box component="section" aria-labelledby="test-cards-title" className={classes.cards}>
      <Title order={2} size="h5" id="test-cards-title">
        {t('testCards.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('testCards.body')}
      </Text>
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {sandboxTestCards.map((card) => {
          const number = formatCardNumber(card.number);
          return (
            <li key={card.number}>
              <Group justify="space-between" gap="xs" wrap="wrap" className={classes.card}>
                <Stack gap={0} className={classes.cardText}>
                  <Text ff="monospace" fw={700} className={classes.nowrap}>
                    {number}
                  </Text>
                  <Text size="sm">{t(`testCards.outcome.${card.outcome}`)}</Text>
                </Stack>
                <Group gap={4} wrap="nowrap">
                  <Button
                    size="xs"
                    variant="light"
                    onClick={() => onUse(card.number)}
                    disabled={disabled}
                    aria-label={t('testCards.useNamed', { number })}
                  >
                    {t('testCards.use')}
                  </Button>
                  <CopyButton value={card.number}>
                    {({ copied, copy }) => (
                      <Button
                        size="xs"
                        variant="subtle"
                        onClick={copy}
                        aria-label={t(copied ? 'testCards.copied' : 'testCards.copyNamed', {
                          number,
                        })}
                        leftSection={
                          copied ? (
                            <IconCheck size={14} aria-hidden />
                          ) : (
                            <IconCopy size={14} aria-hidden />
                          )
                        }
                      >
                        {copied ? t('testCards.copiedShort') : t('testCards.copy')}
                      </Button>
                    )}
                  </CopyButton>
                </Group>
              </Group>
            </li>
          );
        })}
      </Stack>
    </Box>
  );
}

/** The extra confirmation step (like 3-D Secure): the "bank" asks, the payer approves or refuses. */
function ConfirmStep({ checkout }: { checkout: Checkout }) {
  const { t, i18n } = useTranslation('checkout');
  const confirm = useConfirmSandboxCheckout();
  const amount = formatMoney(checkout.amountMinor, checkout.currency, i18n.language);
  const opened = checkout.status === 'requires_confirmation' && Boolean(checkout.confirmationToken);
  function answer(approve: boolean) {
    if (!checkout.confirmationToken) return;
    confirm.mutate({
      checkoutId: checkout.checkoutId,
      confirmationToken: checkout.confirmationToken,
      approve,
    });
  }
  return (
    <Modal
      opened={opened}
      onClose={() => {}}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      centered
      title={
        <Group gap="xs" wrap="nowrap">
          <IconShieldCheck size={20} aria-hidden />
          <span>{t('confirm.title')}</span>
        </Group>
      }
    >
      <Stack gap="md">
        <Text>{t('confirm.body', { amount, merchant: checkout.merchantName })}</Text>
        <Text size="sm" c="dimmed">
          {t('confirm.sandboxNote')}
        </Text>
        {confirm.error ? (
          <Notice tone="red" role="alert">
            {errorText(confirm.error)}
          </Notice>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button
            variant="default"
            onClick={() => answer(false)}
            disabled={confirm.isPending}
            loading={confirm.isPending && confirm.variables?.approve === false}
          >
            {t('confirm.refuse')}
          </Button>
          <Button
            onClick={() => answer(true)}
            disabled={confirm.isPending}
            loading={confirm.isPending && confirm.variables?.approve === true}
            data-autofocus
          >
            {t('confirm.approve')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Paid: back to the merchant's success page, which reads the real outcome. */
function Paid({ checkout }: { checkout: Checkout }) {
  const { t } = useTranslation('checkout');
  useEffect(() => {
    leaveApp.to(checkout.successUrl);
  }, [checkout.successUrl]);
  return (
    <Stack gap="sm" align="center" ta="center" role="status">
      <IconCircleCheck size={48} color="var(--mantine-color-brand-7)" aria-hidden />
      <Title order={1} size="h3">
        {t('paid.title')}
      </Title>
      <Group gap="xs" wrap="nowrap">
        <Loader size="xs" aria-hidden />
        <Text>{t('paid.returning', { merchant: checkout.merchantName })}</Text>
      </Group>
      <Anchor href={checkout.successUrl}>{t('continue')}</Anchor>
    </Stack>
  );
}

/** Declined (or the confirmation refused): said plainly; the checkout is closed, nothing held. */
function Declined({ checkout }: { checkout: Checkout }) {
  const { t } = useTranslation('checkout');
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const reason =
    checkout.failureCode === 'card_declined' || checkout.failureCode === 'authentication_failed'
      ? checkout.failureCode
      : 'other';
  return (
    <Stack gap="md" data-testid="checkout-declined">
      <Notice tone="red" role="alert" icon={<IconAlertTriangle aria-hidden />}>
        <Title order={1} size="h4" ref={heading} tabIndex={-1} className={classes.focusTitle}>
          {t(`declined.${reason}`)}
        </Title>
        <Text mt={4}>{t('declined.body', { merchant: checkout.merchantName })}</Text>
      </Notice>
      <Button
        component="a"
        href={checkout.successUrl}
        size="md"
        fullWidth
        className={classes.wrapButton}
      >
        {t('declined.tryAnother', { merchant: checkout.merchantName })}
      </Button>
    </Stack>
  );
}

function Closed({ checkout }: { checkout: Checkout }) {
  const { t } = useTranslation('checkout');
  const state = checkout.status === 'expired' ? 'expired' : 'cancelled';
  return (
    <Stack gap="md">
      <Title order={1} size="h4">
        {t(`closed.${state}.title`)}
      </Title>
      <Text>{t(`closed.${state}.body`)}</Text>
      <Button
        component="a"
        href={checkout.cancelUrl}
        variant="default"
        fullWidth
        className={classes.wrapButton}
      >
        {t('returnTo', { merchant: checkout.merchantName })}
      </Button>
    </Stack>
  );
}
