import { Box, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconMinus } from '@tabler/icons-react';
import { addOns, type Limit, type Plan, planIds, plans } from '@upnext/contract/plans';
import type { TFunction } from 'i18next';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './PlanComparison.module.css';
import { formatPrice } from './pricing.ts';

type Cell = { kind: 'yes' } | { kind: 'no' } | { kind: 'text'; text: string };

interface RowDef {
  key: string;
  cell: (plan: Plan) => Cell;
}

interface GroupDef {
  key: 'usage' | 'features' | 'security';
  rows: RowDef[];
}

const yes: Cell = { kind: 'yes' };
const no: Cell = { kind: 'no' };

function groups(t: TFunction<'marketing'>, language: string): GroupDef[] {
  const v = (key: string, options?: Record<string, unknown>): Cell => ({
    kind: 'text',
    text: t(`pricing.compare.values.${key}`, options ?? {}) as string,
  });
  const num = (value: number): Cell => ({
    kind: 'text',
    text: new Intl.NumberFormat(language).format(value),
  });
  const limit = (value: Limit): Cell =>
    value === null ? { kind: 'text', text: t('pricing.compare.unlimited') } : num(value);
  const paidOnly = (plan: Plan, cell: Cell): Cell => (plan.monthlyPrice > 0 ? cell : no);

  return [
    {
      key: 'usage',
      rows: [
        { key: 'queues', cell: (p) => limit(p.queues) },
        { key: 'staffSeats', cell: (p) => num(p.staffSeats) },
        {
          key: 'extraSeats',
          cell: (p) =>
            p.id === 'business'
              ? v('extraSeatPrice', { price: formatPrice(addOns.extraSeatPrice, language) })
              : no,
        },
        { key: 'sessionsPerMonth', cell: (p) => limit(p.sessionsPerMonth) },
        { key: 'tokensPerMonth', cell: (p) => num(p.tokensPerMonth) },
        { key: 'locations', cell: (p) => num(p.locations) },
        { key: 'displayBoards', cell: (p) => limit(p.displayBoards) },
        {
          key: 'videoConsultations',
          cell: (p) => (p.videoConsultations === 0 ? no : limit(p.videoConsultations)),
        },
        {
          key: 'smsCredits',
          cell: (p) => (p.smsCredits > 0 ? num(p.smsCredits) : v('emailOnly')),
        },
        {
          key: 'extraSms',
          cell: (p) =>
            paidOnly(
              p,
              v('extraSmsPrice', {
                price: formatPrice(addOns.smsPackPrice, language),
                size: addOns.smsPackSize,
              }),
            ),
        },
      ],
    },
    {
      key: 'features',
      rows: [
        { key: 'walkInAndBooking', cell: () => yes },
        { key: 'livePosition', cell: () => yes },
        { key: 'console', cell: () => yes },
        { key: 'emailNotifications', cell: () => yes },
        { key: 'onlinePayments', cell: (p) => (p.onlinePayments ? v('paymentFees') : no) },
        { key: 'reports', cell: (p) => v('reportsRange', { count: p.retentionMonths }) },
        { key: 'csvExport', cell: () => yes },
        { key: 'api', cell: (p) => (p.api ? yes : no) },
      ],
    },
    {
      key: 'security',
      rows: [
        {
          key: 'mfa',
          cell: (p) =>
            v(p.sso ? 'mfaEnforced' : p.monthlyPrice > 0 ? 'mfaRequirable' : 'mfaOptional'),
        },
        { key: 'sso', cell: (p) => (p.sso ? yes : no) },
        {
          key: 'retention',
          cell: (p) =>
            p.sso
              ? v('retentionConfigurable', { count: p.retentionMonths })
              : v('retentionMonths', { count: p.retentionMonths }),
        },
        { key: 'dpa', cell: () => yes },
        {
          key: 'sla',
          cell: (p) => (p.uptimeSla ? v('sla', { uptime: addOns.uptimePercent }) : no),
        },
        {
          key: 'support',
          cell: (p) =>
            v(p.id === 'free' ? 'supportFree' : p.id === 'pro' ? 'supportPro' : 'supportBusiness'),
        },
      ],
    },
  ];
}

function CellContent({ cell, t }: { cell: Cell; t: TFunction<'marketing'> }) {
  if (cell.kind === 'text') return <>{cell.text}</>;
  const included = cell.kind === 'yes';
  return (
    <>
      <ThemeIcon
        size={24}
        radius="xl"
        variant={included ? 'light' : 'transparent'}
        color={included ? undefined : 'gray'}
        aria-hidden="true"
      >
        {included ? <IconCheck size={15} stroke={2.5} /> : <IconMinus size={15} />}
      </ThemeIcon>
      <VisuallyHidden>
        {included ? t('pricing.compare.included') : t('pricing.compare.notIncluded')}
      </VisuallyHidden>
    </>
  );
}

/** Every limit and feature of the three plans, as an accessible data table. */
export function PlanComparison() {
  const { t, i18n } = useTranslation('marketing');
  return (
    // A plain table in a native scroll box: Mantine's Table imports its ScrollArea, and with it
    // floating-ui (15 kB gzipped), even where it scrolls natively.
    <Box
      tabIndex={0}
      role="region"
      aria-labelledby="plan-comparison-caption"
      className={classes.wrap}
    >
      <table className={classes.table}>
        <caption id="plan-comparison-caption" className={classes.caption}>
          {t('pricing.compare.caption')}
        </caption>
        <thead>
          <tr>
            <th scope="col" className={classes.featureCol}>
              {t('pricing.compare.featureColumn')}
            </th>
            {planIds.map((id) => (
              <th key={id} scope="col" className={classes.planCol}>
                <Text fw={700} size="lg" component="span" display="block">
                  {t(`pricing.plans.${id}.name`)}
                </Text>
                <Text c="dimmed" size="sm" fw={500} component="span" display="block">
                  {formatPrice(plans[id].monthlyPrice, i18n.language)} {t('pricing.perMonth')}
                </Text>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {groups(t, i18n.language).map((group) => (
            <Fragment key={group.key}>
              <tr className={classes.groupRow}>
                <th scope="colgroup" colSpan={planIds.length + 1}>
                  {t(`pricing.compare.groups.${group.key}`)}
                </th>
              </tr>
              {group.rows.map((row) => (
                <tr key={row.key}>
                  <th scope="row" className={classes.rowHeader}>
                    {t(`pricing.compare.rows.${row.key}`)}
                  </th>
                  {planIds.map((id) => (
                    <td key={id} className={classes.cell}>
                      <CellContent cell={row.cell(plans[id])} t={t} />
                    </td>
                  ))}
                </tr>
              ))}
            </Fragment>
          ))}
        </tbody>
      </table>
    </Box>
  );
}
