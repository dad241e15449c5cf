import {
  Button,
  Group,
  List,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import type { CompanyBilling, PlanUsage } from '@upnext/contract/billing';
import type { PaidPlan } from '@upnext/contract/payments';
import { type Plan, type PlanId, planCurrency, planIds, plans } from '@upnext/contract/plans';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { ErrorNotice, LoadError, LoadingList } from '../../../components/StateViews.tsx';
import { Notice, Tag, type Tone } from '../../../components/tones.tsx';
import { formatMoney } from '../../../entities/payment/format.ts';
import { i18n } from '../../../lib/i18n.ts';
import { leaveApp } from '../../../lib/leave-app.ts';
import { useCancelPlan } from '../api/cancelPlan.ts';
import { useCreatePlanCheckout } from '../api/createPlanCheckout.ts';
import { useCompanyBilling } from '../api/getCompanyBilling.ts';
import { formatDay, planName } from './format.ts';

interface BillingPanelProps {
  companyId: string;
  /** Owners buy and cancel plans; admins read them. */
  canBuy: boolean;
}

/**
 * The company's Billing settings: its plan and billing state, this month's use of each limit,
 * and the plans of the one plan table (the pricing page's numbers) to upgrade, downgrade or
 * cancel through the same checkout as visits.
 */
export function BillingPanel({ companyId, canBuy }: BillingPanelProps) {
  const billing = useCompanyBilling(companyId);
  if (billing.isPending) return <LoadingList rows={3} />;
  if (billing.isError) {
    return <LoadError error={billing.error} onRetry={() => void billing.refetch()} />;
  }
  return <Billing billing={billing.data} canBuy={canBuy} />;
}

function Billing({ billing, canBuy }: { billing: CompanyBilling; canBuy: boolean }) {
  const { t } = useTranslation('billing');
  const checkout = useCreatePlanCheckout();
  const cancel = useCancelPlan(billing.companyId);
  const [confirming, setConfirming] = useState(false);
  const [asked, setAsked] = useState<PaidPlan | null>(null);

  const buy = (plan: PaidPlan) => {
    setAsked(plan);
    checkout.mutate(
      { plan, companyId: billing.companyId },
      { onSuccess: (answer) => leaveApp.to(answer.checkoutUrl) },
    );
  };

  return (
    <Stack gap="xl">
      <CurrentPlan
        billing={billing}
        canBuy={canBuy}
        onCancel={() => {
          cancel.reset();
          setConfirming(true);
        }}
      />
      {cancel.isSuccess && billing.planRenewsAt ? (
        <Notice tone="blue" role="status">
          {t('cancel.done', { date: formatDay(billing.planRenewsAt, billing.timezone) })}
        </Notice>
      ) : null}
      <Usage billing={billing} />
      <Stack gap="md" component="section" aria-labelledby="billing-plans">
        <div>
          <Title order={2} size="h3" id="billing-plans">
            {t('plans.title')}
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            {t('plans.description')}
          </Text>
        </div>
        <ErrorNotice error={checkout.error} title={t('plans.unavailable')} />
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
          {planIds.map((id) => (
            <PlanChoice
              key={id}
              plan={plans[id]}
              billing={billing}
              canBuy={canBuy}
              loading={checkout.isPending && asked === id}
              disabled={checkout.isPending}
              onBuy={buy}
              onCancel={() => {
                cancel.reset();
                setConfirming(true);
              }}
            />
          ))}
        </SimpleGrid>
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title={t('cancel.title', { plan: planName(billing.plan) })}
        body={t('cancel.body', {
          plan: planName(billing.plan),
          date: billing.planRenewsAt ? formatDay(billing.planRenewsAt, billing.timezone) : '—',
        })}
        confirmLabel={t('cancel.confirm')}
        danger
        loading={cancel.isPending}
        error={cancel.error}
        onConfirm={() => cancel.mutate(undefined, { onSuccess: () => setConfirming(false) })}
        onClose={() => setConfirming(false)}
      />
    </Stack>
  );
}

function statusTag(billing: CompanyBilling): { tone: Tone; label: string } {
  const t = (key: string, options?: Record<string, unknown>) =>
    i18n.t(`billing:plan.status.${key}`, options ?? {});
  if (billing.planCancelsAtPeriodEnd && billing.planRenewsAt) {
    const date = formatDay(billing.planRenewsAt, billing.timezone);
    return { tone: 'gray', label: t('cancelsAtPeriodEnd', { date }) };
  }
  if (billing.planStatus === 'past_due') return { tone: 'red', label: t('past_due') };
  if (billing.planStatus === 'cancelled') return { tone: 'gray', label: t('cancelled') };
  return { tone: 'teal', label: t('active') };
}

function CurrentPlan({
  billing,
  canBuy,
  onCancel,
}: {
  billing: CompanyBilling;
  canBuy: boolean;
  onCancel: () => void;
}) {
  const { t, i18n: current } = useTranslation('billing');
  const tag = statusTag(billing);
  const paid = billing.plan !== 'free';
  const until = billing.planRenewsAt ? formatDay(billing.planRenewsAt, billing.timezone) : null;
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} component="section">
      <Stack gap="sm">
        <Text size="sm" c="dimmed" fw={600} tt="uppercase">
          {t('plan.title')}
        </Text>
        <Group gap="sm" align="center">
          <Title order={2} size="h3" data-testid="current-plan">
            {t('plan.name', { plan: planName(billing.plan) })}
          </Title>
          <Tag tone={tag.tone} size="lg" tt="none" data-testid="plan-status">
            {tag.label}
          </Tag>
        </Group>
        <Text>
          {paid
            ? t('plan.price', {
                price: formatMoney(billing.monthlyPriceMinor, billing.currency, current.language),
              })
            : t('plan.free')}
        </Text>
        {paid && until ? (
          <Text c="dimmed">
            {billing.planCancelsAtPeriodEnd
              ? t('plan.endsOn', { plan: planName(billing.plan), date: until })
              : t('plan.renews', { date: until })}
          </Text>
        ) : null}
        {billing.planStatus === 'past_due' ? (
          <Notice tone="red" role="alert">
            {t('plan.pastDue', { date: until ?? '—' })}
          </Notice>
        ) : null}
        {canBuy ? (
          paid && !billing.planCancelsAtPeriodEnd ? (
            <Group>
              <Button variant="default" color="red" onClick={onCancel}>
                {t('plan.cancel')}
              </Button>
            </Group>
          ) : null
        ) : (
          <Text size="sm" c="dimmed">
            {t('plan.readOnly')}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

function Usage({ billing }: { billing: CompanyBilling }) {
  const { t, i18n: current } = useTranslation('billing');
  const month = new Intl.DateTimeFormat(current.language, {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${billing.month}-01T12:00:00Z`));
  return (
    <Stack gap="md" component="section" aria-labelledby="billing-usage">
      <div>
        <Title order={2} size="h3" id="billing-usage">
          {t('usage.title')}
        </Title>
        <Text c="dimmed" size="sm" mt={4}>
          {t('usage.description', { month })}
        </Text>
      </div>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
        {billing.usage.map((usage) => (
          <UsageBar key={usage.resource} usage={usage} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

function UsageBar({ usage }: { usage: PlanUsage }) {
  const { t } = useTranslation('billing');
  const resource = t(`usage.resources.${usage.resource}`);
  const value =
    usage.limit === null
      ? t('usage.unlimited', { used: usage.used })
      : usage.limit === 0
        ? t('usage.notIncluded')
        : t('usage.ofLimit', { used: usage.used, limit: usage.limit });
  const percent =
    usage.limit === null || usage.limit === 0
      ? 0
      : Math.min(100, Math.round((usage.used / usage.limit) * 100));
  const full = usage.limit !== null && usage.limit > 0 && usage.used >= usage.limit;
  return (
    <Stack gap={6} data-testid={`usage-${usage.resource}`}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text fw={600} size="sm">
          {resource}{' '}
          <Text span c="dimmed" size="xs" fw={400}>
            ({usage.monthly ? t('usage.monthly') : t('usage.now')})
          </Text>
        </Text>
        <Text size="sm" c={full ? 'red.9' : undefined} fw={full ? 600 : 400}>
          {value}
        </Text>
      </Group>
      <Progress
        value={percent}
        color={full ? 'red.8' : percent >= 80 ? 'yellow.7' : 'brand'}
        size="md"
        radius="xl"
        aria-label={t('usage.label', { resource, value })}
      />
      {full ? (
        <Text size="xs" c="red.9">
          {t('usage.full')}
        </Text>
      ) : null}
    </Stack>
  );
}

interface PlanChoiceProps {
  plan: Plan;
  billing: CompanyBilling;
  canBuy: boolean;
  loading: boolean;
  disabled: boolean;
  onBuy: (plan: PaidPlan) => void;
  onCancel: () => void;
}

function PlanChoice({
  plan,
  billing,
  canBuy,
  loading,
  disabled,
  onBuy,
  onCancel,
}: PlanChoiceProps) {
  const { t, i18n: current } = useTranslation('billing');
  const { t: m } = useTranslation('marketing');
  const isCurrent = plan.id === billing.plan;
  const higher = rank(plan.id) > rank(billing.plan);
  const name = planName(plan.id);
  const highlights: Array<[string, boolean]> = [
    [
      plan.queues === null
        ? m('pricing.limits.queuesUnlimited')
        : m('pricing.limits.queues', { count: plan.queues }),
      true,
    ],
    [m('pricing.limits.staffSeats', { count: plan.staffSeats }), true],
    [
      plan.sessionsPerMonth === null
        ? m('pricing.limits.sessionsUnlimited')
        : m('pricing.limits.sessionsPerMonth', { count: plan.sessionsPerMonth }),
      true,
    ],
    [m('pricing.limits.tokensPerMonth', { count: plan.tokensPerMonth }), true],
    [
      plan.videoConsultations === null
        ? m('pricing.limits.videoUnlimited')
        : plan.videoConsultations === 0
          ? m('pricing.limits.videoNone')
          : m('pricing.limits.video', { count: plan.videoConsultations }),
      plan.videoConsultations !== 0,
    ],
    [
      plan.onlinePayments ? m('pricing.limits.payments') : m('pricing.limits.paymentsNone'),
      plan.onlinePayments,
    ],
  ];

  let action: ReactNode = null;
  if (isCurrent) {
    action = (
      <Button variant="light" disabled fullWidth>
        {t('plans.current')}
      </Button>
    );
  } else if (canBuy && plan.id === 'free') {
    action = billing.planCancelsAtPeriodEnd ? null : (
      <Button variant="default" fullWidth onClick={onCancel}>
        {t('plans.toFree')}
      </Button>
    );
  } else if (canBuy) {
    const paidPlan = plan.id as PaidPlan;
    action = (
      <Button
        variant={higher ? 'filled' : 'default'}
        fullWidth
        loading={loading}
        disabled={disabled && !loading}
        onClick={() => onBuy(paidPlan)}
      >
        {higher ? t('plans.upgrade', { plan: name }) : t('plans.downgrade', { plan: name })}
      </Button>
    );
  }

  return (
    <Paper
      withBorder
      radius="lg"
      p="lg"
      data-testid={`plan-${plan.id}`}
      style={
        isCurrent ? { borderColor: 'var(--mantine-color-brand-6)', borderWidth: 2 } : undefined
      }
    >
      <Stack gap="sm" h="100%" justify="space-between">
        <Stack gap="sm">
          <Group justify="space-between" gap="xs">
            <Title order={3} size="h4">
              {name}
            </Title>
            {isCurrent ? (
              <Tag tone="brand" tt="none">
                {t('plans.current')}
              </Tag>
            ) : null}
          </Group>
          <Text>
            <Text span fw={700} fz={28}>
              {formatMoney(plan.monthlyPriceMinor, planCurrency, current.language)}
            </Text>{' '}
            <Text span c="dimmed" size="sm">
              {t('plans.perMonth')}
            </Text>
          </Text>
          <List spacing={6} size="sm" center>
            {highlights.map(([label, included]) => (
              <List.Item
                key={label}
                icon={
                  <ThemeIcon
                    size={20}
                    radius="xl"
                    variant="light"
                    color={included ? 'brand' : 'gray'}
                    aria-hidden
                  >
                    {included ? <IconCheck size={14} /> : <IconX size={14} />}
                  </ThemeIcon>
                }
              >
                {label}
              </List.Item>
            ))}
          </List>
        </Stack>
        {action}
      </Stack>
    </Paper>
  );
}

function rank(plan: PlanId): number {
  return planIds.indexOf(plan);
}
