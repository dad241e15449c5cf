import {
  Box,
  Button,
  Group,
  NumberInput,
  Pagination,
  Paper,
  Radio,
  Select,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload, IconReceipt, IconSearch } from '@tabler/icons-react';
import { currencyDigits } from '@upnext/contract/money';
import {
  type Payment,
  type PaymentKind,
  type PaymentStatus,
  paymentKinds,
  paymentStatuses,
} from '@upnext/contract/payments';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import {
  EmptyBlock,
  ErrorNotice,
  LoadError,
  LoadingList,
} from '../../../components/StateViews.tsx';
import { formatMoney } from '../../../entities/payment/format.ts';
import {
  PaymentStatusBadge,
  RefundStatusBadge,
} from '../../../entities/payment/PaymentStatusBadge.tsx';
import { downloadCsv } from '../../../lib/csv.ts';
import { useCompanyBilling } from '../api/getCompanyBilling.ts';
import {
  listCompanyPayments,
  type PaymentFilters,
  useCompanyPayments,
} from '../api/listCompanyPayments.ts';
import { useRefundPayment } from '../api/refundPayment.ts';
import { formatDateTime } from './format.ts';
import { paymentsToCsv, refundable, whatText } from './payments.ts';

const PAGE_SIZE = 25;

/** The filters a person chose; dates are days (`YYYY-MM-DD`) in the browser's calendar. */
export interface FilterState {
  kind: PaymentKind | '';
  status: PaymentStatus | '';
  from: string;
  to: string;
  search: string;
}

const noFilters: FilterState = { kind: '', status: '', from: '', to: '', search: '' };

/** The list query for the chosen filters: `to` is the whole day (the server's `to` is exclusive). */
export function filtersToQuery(filters: FilterState): PaymentFilters {
  const query: PaymentFilters = {};
  if (filters.kind) query.kind = filters.kind;
  if (filters.status) query.status = filters.status;
  if (filters.from) query.from = new Date(`${filters.from}T00:00:00`).toISOString();
  if (filters.to) {
    const end = new Date(`${filters.to}T00:00:00`);
    end.setDate(end.getDate() + 1);
    query.to = end.toISOString();
  }
  const search = filters.search.trim();
  if (search) query.query = search;
  return query;
}

/**
 * The company's payments (owners and admins): visits and plans, newest first, filtered and
 * paginated; a refund (full or part) from each paid row; the filtered list as CSV.
 */
export function PaymentsPanel({ companyId }: { companyId: string }) {
  const { t } = useTranslation('billing');
  const billing = useCompanyBilling(companyId);
  const timezone = billing.data?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const [filters, setFilters] = useState<FilterState>(noFilters);
  const [debouncedSearch] = useDebouncedValue(filters.search, 300);
  const [page, setPage] = useState(1);
  const [refunding, setRefunding] = useState<Payment | null>(null);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<unknown>(null);

  const query = filtersToQuery({ ...filters, search: debouncedSearch });
  const payments = useCompanyPayments(companyId, { ...query, page, pageSize: PAGE_SIZE });
  const change = (patch: Partial<FilterState>) => {
    setFilters((current) => ({ ...current, ...patch }));
    setPage(1);
  };
  const filtered = Object.values(query).some(Boolean);

  const exportCsv = async () => {
    setExporting(true);
    setExportError(null);
    try {
      const rows: Payment[] = [];
      for (let next = 1; ; next += 1) {
        const answer = await listCompanyPayments(companyId, {
          ...query,
          page: next,
          pageSize: 500,
        });
        rows.push(...answer.items);
        if (rows.length >= answer.total || answer.items.length === 0) break;
      }
      downloadCsv(
        `payments-${new Date().toISOString().slice(0, 10)}.csv`,
        paymentsToCsv(rows, timezone),
      );
    } catch (error) {
      setExportError(error);
    } finally {
      setExporting(false);
    }
  };

  return (
    <Stack gap="md" miw={0}>
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <Title order={2} size="h3">
            {t('payments.title')}
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            {t('payments.description', { timezone })}
          </Text>
        </div>
        <Button
          variant="default"
          leftSection={<IconDownload size={18} aria-hidden />}
          loading={exporting}
          onClick={() => void exportCsv()}
          disabled={!payments.data || payments.data.total === 0}
        >
          {t('payments.export')}
        </Button>
      </Group>
      <ErrorNotice error={exportError} />
      <Paper
        withBorder
        radius="lg"
        p="md"
        component="form"
        role="search"
        aria-label={t('payments.filters.label')}
        onSubmit={(event) => event.preventDefault()}
      >
        <Group gap="sm" align="flex-end" wrap="wrap">
          <Select
            label={t('payments.filters.kind')}
            data={[
              { value: '', label: t('payments.filters.any') },
              ...paymentKinds.map((kind) => ({ value: kind, label: t(`payments.kind.${kind}`) })),
            ]}
            value={filters.kind}
            onChange={(value) => change({ kind: (value ?? '') as FilterState['kind'] })}
            allowDeselect={false}
            w={{ base: '100%', xs: 140 }}
          />
          <Select
            label={t('payments.filters.status')}
            data={[
              { value: '', label: t('payments.filters.any') },
              ...paymentStatuses.map((status) => ({
                value: status,
                label: t(`entities:payment.status.${status}`),
              })),
            ]}
            value={filters.status}
            onChange={(value) => change({ status: (value ?? '') as FilterState['status'] })}
            allowDeselect={false}
            w={{ base: '100%', xs: 150 }}
          />
          <TextInput
            type="date"
            label={t('payments.filters.from')}
            value={filters.from}
            max={filters.to || undefined}
            onChange={(event) => change({ from: event.currentTarget.value })}
            w={{ base: '100%', xs: 170 }}
          />
          <TextInput
            type="date"
            label={t('payments.filters.to')}
            value={filters.to}
            min={filters.from || undefined}
            onChange={(event) => change({ to: event.currentTarget.value })}
            w={{ base: '100%', xs: 170 }}
          />
          <TextInput
            label={t('payments.filters.search')}
            placeholder={t('payments.filters.searchPlaceholder')}
            leftSection={<IconSearch size={16} aria-hidden />}
            value={filters.search}
            maxLength={100}
            onChange={(event) => change({ search: event.currentTarget.value })}
            style={{ flex: 1 }}
            miw={200}
          />
          {filtered || filters.search ? (
            <Button variant="subtle" onClick={() => change(noFilters)}>
              {t('payments.filters.clear')}
            </Button>
          ) : null}
        </Group>
      </Paper>
      {payments.isPending ? (
        <LoadingList rows={4} />
      ) : payments.isError ? (
        <LoadError error={payments.error} onRetry={() => void payments.refetch()} />
      ) : payments.data.total === 0 ? (
        <EmptyBlock
          order={3}
          icon={<IconReceipt aria-hidden />}
          title={filtered ? t('payments.noMatch') : t('payments.empty')}
          body={filtered ? undefined : t('payments.emptyBody')}
        />
      ) : (
        <>
          <Text size="sm" c="dimmed" role="status">
            {t('payments.count', { count: payments.data.total })}
          </Text>
          {/* Scrolls sideways on a phone, by touch or by keyboard (it takes focus). */}
          <Box
            tabIndex={0}
            role="region"
            aria-label={t('payments.table')}
            // Width 0 and at least the column: the wide table never widens the page itself.
            style={{ width: 0, minWidth: '100%', overflowX: 'auto' }}
          >
            <Table
              miw={860}
              verticalSpacing="sm"
              striped
              highlightOnHover
              aria-label={t('payments.table')}
            >
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('payments.columns.date')}</Table.Th>
                  <Table.Th>{t('payments.columns.payer')}</Table.Th>
                  <Table.Th>{t('payments.columns.what')}</Table.Th>
                  <Table.Th ta="right">{t('payments.columns.amount')}</Table.Th>
                  <Table.Th>{t('payments.columns.status')}</Table.Th>
                  <Table.Th>{t('payments.columns.refund')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('payments.columns.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {payments.data.items.map((payment) => (
                  <PaymentRow
                    key={payment.id}
                    payment={payment}
                    timezone={timezone}
                    onRefund={() => setRefunding(payment)}
                  />
                ))}
              </Table.Tbody>
            </Table>
          </Box>
          {payments.data.total > PAGE_SIZE ? (
            <Pagination
              total={Math.ceil(payments.data.total / PAGE_SIZE)}
              value={page}
              onChange={setPage}
              getControlProps={(control) => ({ 'aria-label': control })}
            />
          ) : null}
        </>
      )}
      {refunding ? (
        <RefundDialog
          key={refunding.id}
          companyId={companyId}
          payment={refunding}
          onClose={() => setRefunding(null)}
        />
      ) : null}
    </Stack>
  );
}

function PaymentRow({
  payment,
  timezone,
  onRefund,
}: {
  payment: Payment;
  timezone: string;
  onRefund: () => void;
}) {
  const { t, i18n } = useTranslation('billing');
  const money = (minor: number) => formatMoney(minor, payment.currency, i18n.language);
  const payer = payment.payerEmail ?? t('payments.noPayer');
  return (
    <Table.Tr data-testid={`payment-${payment.id}`}>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        {formatDateTime(payment.createdAt, timezone)}
      </Table.Td>
      <Table.Td>
        <Email address={payer} />
      </Table.Td>
      <Table.Td>{whatText(payment)}</Table.Td>
      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
        {money(payment.amountMinor)}
      </Table.Td>
      <Table.Td>
        <PaymentStatusBadge status={payment.status} tt="none" />
      </Table.Td>
      <Table.Td>
        {payment.refundStatus ? (
          <Stack gap={2} align="flex-start">
            <RefundStatusBadge status={payment.refundStatus} tt="none" />
            {payment.refundedMinor > 0 ? (
              <Text size="xs" c="dimmed">
                {t('payments.refundedAmount', {
                  amount: money(payment.refundedMinor),
                  paid: money(payment.amountMinor),
                })}
              </Text>
            ) : null}
          </Stack>
        ) : null}
      </Table.Td>
      <Table.Td>
        {refundable(payment) ? (
          <Button
            size="xs"
            variant="default"
            onClick={onRefund}
            aria-label={t('payments.refundLabel', { amount: money(payment.amountMinor), payer })}
          >
            {t('payments.refund')}
          </Button>
        ) : null}
      </Table.Td>
    </Table.Tr>
  );
}

function RefundDialog({
  companyId,
  payment,
  onClose,
}: {
  companyId: string;
  payment: Payment;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('billing');
  const refund = useRefundPayment(companyId);
  const left = payment.amountMinor - payment.refundedMinor;
  const digits = currencyDigits(payment.currency);
  const money = (minor: number) => formatMoney(minor, payment.currency, i18n.language);
  const [mode, setMode] = useState<'full' | 'partial'>('full');
  const [amount, setAmount] = useState<number | string>('');
  const [reason, setReason] = useState('');
  const [invalid, setInvalid] = useState(false);
  const partialMinor = Math.round(Number(amount) * 10 ** digits);
  const asked = mode === 'full' ? left : partialMinor;

  const confirm = () => {
    if (mode === 'partial' && !(partialMinor >= 1 && partialMinor <= left)) {
      setInvalid(true);
      return;
    }
    refund.mutate(
      {
        paymentId: payment.id,
        ...(mode === 'partial' ? { amountMinor: partialMinor } : {}),
        ...(reason.trim() ? { reason: reason.trim() } : {}),
      },
      { onSuccess: onClose },
    );
  };

  return (
    <ConfirmDialog
      opened
      title={t('refund.title', {
        amount: money(Number.isFinite(asked) && asked > 0 ? asked : left),
      })}
      body={t('refund.body', {
        payer: payment.payerEmail ?? t('payments.noPayer'),
        paid: money(payment.amountMinor),
        what: whatText(payment),
      })}
      confirmLabel={t('refund.confirm')}
      danger
      loading={refund.isPending}
      error={refund.error}
      onConfirm={confirm}
      onClose={onClose}
    >
      <Radio.Group value={mode} onChange={(value) => setMode(value as 'full' | 'partial')}>
        <Stack gap="xs">
          <Radio value="full" label={t('refund.full', { amount: money(left) })} />
          <Radio value="partial" label={t('refund.partial')} />
        </Stack>
      </Radio.Group>
      {mode === 'partial' ? (
        <NumberInput
          label={t('refund.amount')}
          description={t('refund.amountHelp', { amount: money(left) })}
          value={amount}
          onChange={(value) => {
            setAmount(value);
            setInvalid(false);
          }}
          min={0}
          max={left / 10 ** digits}
          clampBehavior="none"
          decimalScale={digits}
          allowNegative={false}
          error={invalid ? t('refund.amountInvalid', { amount: money(left) }) : undefined}
          data-autofocus
        />
      ) : null}
      <Textarea
        label={t('refund.reason')}
        value={reason}
        maxLength={200}
        autosize
        minRows={2}
        onChange={(event) => setReason(event.currentTarget.value)}
      />
    </ConfirmDialog>
  );
}

/** An email that wraps after its "@" rather than in the middle of a word. */
function Email({ address }: { address: string }) {
  const at = address.indexOf('@');
  if (at < 0) return address;
  return (
    <>
      {address.slice(0, at)}
      <wbr />
      {address.slice(at)}
    </>
  );
}
