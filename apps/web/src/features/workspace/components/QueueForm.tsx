import {
  Button,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  type CreateQueueBody,
  createQueueBodySchema,
  type Queue,
  queueModes,
  queueVisibilities,
} from '@upnext/contract/queues';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { contractErrors } from './formErrors.ts';
import { IntakeQuestionsEditor, type IntakeQuestionValues } from './IntakeQuestionsEditor.tsx';
import { currencyOptions, fromMinor, toMinor } from './options.ts';

export interface QueueFormValues {
  name: string;
  description: string;
  mode: Queue['mode'];
  visibility: Queue['visibility'];
  online: boolean;
  tokenPrefix: string;
  tokensPerVisitor: number | string;
  turnApproachingThreshold: number | string;
  paid: boolean;
  price: number | string;
  currency: string;
  /** The cancellation notice in `noticeUnit`s (the contract keeps minutes). */
  notice: number | string;
  noticeUnit: NoticeUnit;
  refundPercent: number | string;
  /** How late visitors may cancel or move a booking themselves, in hours (the contract: minutes). */
  changeCutoffHours: number | string;
  intakeQuestions: IntakeQuestionValues[];
}

const noticeUnits = { minutes: 1, hours: 60 } as const;
type NoticeUnit = keyof typeof noticeUnits;

/** Whole hours when the notice is a whole number of hours (e.g. 1440 → 24 hours). */
function noticeFromMinutes(minutes: number): { notice: number; noticeUnit: NoticeUnit } {
  return minutes > 0 && minutes % 60 === 0
    ? { notice: minutes / 60, noticeUnit: 'hours' }
    : { notice: minutes, noticeUnit: 'minutes' };
}

/** The queue's fields as the API takes them (without the company). */
export type QueueFields = Omit<CreateQueueBody, 'companyId'>;

function queueFormToBody(values: QueueFormValues): QueueFields {
  const int = (value: number | string) => (value === '' ? Number.NaN : Number(value));
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    mode: values.mode,
    visibility: values.visibility,
    online: values.online,
    tokenPrefix: values.tokenPrefix.trim().toUpperCase(),
    tokensPerVisitor: int(values.tokensPerVisitor),
    turnApproachingThreshold: int(values.turnApproachingThreshold),
    priceMinor: values.paid ? toMinor(values.price) : null,
    currency: values.paid ? values.currency || null : null,
    cancelNoticeMinutes:
      values.notice === '' ? Number.NaN : Number(values.notice) * noticeUnits[values.noticeUnit],
    refundPercent: int(values.refundPercent),
    changeCutoffMinutes:
      values.changeCutoffHours === ''
        ? Number.NaN
        : Math.round(Number(values.changeCutoffHours) * 60),
    intakeQuestions: values.intakeQuestions.map(({ optionsText, ...question }) => ({
      ...question,
      label: question.label.trim(),
      helpText: question.helpText.trim(),
      options:
        question.kind === 'choice'
          ? optionsText
              .split('\n')
              .map((option) => option.trim())
              .filter(Boolean)
          : [],
    })),
  };
}

function initialValues(queue: Queue | undefined, defaultCurrency: string): QueueFormValues {
  return {
    name: queue?.name ?? '',
    description: queue?.description ?? '',
    mode: queue?.mode ?? 'walk_in',
    visibility: queue?.visibility ?? 'public',
    online: queue?.online ?? false,
    tokenPrefix: queue?.tokenPrefix ?? 'A',
    tokensPerVisitor: queue?.tokensPerVisitor ?? 1,
    turnApproachingThreshold: queue?.turnApproachingThreshold ?? 3,
    paid: queue ? queue.priceMinor !== null : false,
    price: queue ? fromMinor(queue.priceMinor) : '',
    currency: queue?.currency ?? defaultCurrency,
    ...noticeFromMinutes(queue?.cancelNoticeMinutes ?? 0),
    refundPercent: queue?.refundPercent ?? 100,
    changeCutoffHours: (queue?.changeCutoffMinutes ?? 0) / 60,
    intakeQuestions: (queue?.intakeQuestions ?? []).map(({ options, ...question }) => ({
      ...question,
      optionsText: options.join('\n'),
    })),
  };
}

interface QueueFormProps {
  companyId: string;
  /** The company's currency, proposed for a paid queue. */
  defaultCurrency: string;
  queue?: Queue;
  loading?: boolean;
  onSubmit: (fields: QueueFields) => void;
  onCancel?: () => void;
}

/** Create or edit a queue; validated by the contract's `createQueueBodySchema`. */
export function QueueForm({
  companyId,
  defaultCurrency,
  queue,
  loading,
  onSubmit,
  onCancel,
}: QueueFormProps) {
  const { t } = useTranslation('workspace');
  const modeHelpId = useId();
  const form = useForm<QueueFormValues>({
    mode: 'controlled',
    initialValues: initialValues(queue, defaultCurrency),
    validate: (values) => {
      const errors = contractErrors(
        createQueueBodySchema,
        { companyId, ...queueFormToBody(values) },
        {
          priceMinor: 'price',
          cancelNoticeMinutes: 'notice',
          changeCutoffMinutes: 'changeCutoffHours',
        },
      );
      // A question's options are edited as lines of one field.
      for (const key of Object.keys(errors)) {
        const options = /^(intakeQuestions\.\d+)\.options(\.\d+)?$/.exec(key);
        if (options) {
          errors[`${options[1]}.optionsText`] ??= errors[key] as string;
          delete errors[key];
        }
      }
      if (values.paid && toMinor(values.price) === null) {
        errors.price = t('queue.form.priceRequired');
        delete errors.currency;
      }
      return errors;
    },
  });
  const mode = form.getValues().mode;

  return (
    <form noValidate onSubmit={form.onSubmit((values) => onSubmit(queueFormToBody(values)))}>
      <Stack gap="md">
        <TextInput label={t('queue.form.name')} required {...form.getInputProps('name')} />
        <Textarea
          label={t('queue.form.description')}
          autosize
          minRows={2}
          maxRows={6}
          {...form.getInputProps('description')}
        />
        <Stack gap={6}>
          <Text size="sm" fw={500} id={`${modeHelpId}-label`}>
            {t('queue.form.mode')}
          </Text>
          <div
            role="radiogroup"
            aria-labelledby={`${modeHelpId}-label`}
            aria-describedby={modeHelpId}
          >
            <SegmentedControl
              fullWidth
              data={queueModes.map((value) => ({ value, label: t(`modes.${value}`) }))}
              {...form.getInputProps('mode')}
            />
          </div>
          <Text size="xs" c="dimmed" id={modeHelpId}>
            {t(`queue.form.modeHint.${mode}`)}
          </Text>
        </Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label={t('queue.form.visibility')}
            description={t(`queue.form.visibilityHint.${form.getValues().visibility}`)}
            data={queueVisibilities.map((value) => ({ value, label: t(`visibility.${value}`) }))}
            allowDeselect={false}
            {...form.getInputProps('visibility')}
          />
          <TextInput
            label={t('queue.form.tokenPrefix')}
            description={t('queue.form.tokenPrefixHint')}
            maxLength={4}
            {...form.getInputProps('tokenPrefix')}
            onChange={(event) =>
              form.setFieldValue('tokenPrefix', event.currentTarget.value.toUpperCase())
            }
          />
          <NumberInput
            label={t('queue.form.tokensPerVisitor')}
            description={t('queue.form.tokensPerVisitorHint')}
            min={1}
            max={20}
            allowDecimal={false}
            {...form.getInputProps('tokensPerVisitor')}
          />
          <NumberInput
            label={t('queue.form.threshold')}
            description={t('queue.form.thresholdHint')}
            min={0}
            max={50}
            allowDecimal={false}
            {...form.getInputProps('turnApproachingThreshold')}
          />
        </SimpleGrid>
        <Switch
          label={t('queue.form.online')}
          description={t('queue.form.onlineHint')}
          {...form.getInputProps('online', { type: 'checkbox' })}
        />
        <Switch
          label={t('queue.form.paid')}
          description={t('queue.form.paidHint')}
          {...form.getInputProps('paid', { type: 'checkbox' })}
        />
        {form.getValues().paid ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NumberInput
              label={t('queue.form.price')}
              required
              min={0.01}
              decimalScale={2}
              fixedDecimalScale
              {...form.getInputProps('price')}
            />
            <Select
              label={t('queue.form.currency')}
              required
              searchable
              data={currencyOptions()}
              allowDeselect={false}
              {...form.getInputProps('currency')}
            />
          </SimpleGrid>
        ) : null}
        {form.getValues().paid ? (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Group gap="xs" align="flex-end" wrap="nowrap">
              <NumberInput
                label={t('queue.form.cancelNotice')}
                description={t('queue.form.cancelNoticeHint')}
                min={0}
                max={43_200 / noticeUnits[form.getValues().noticeUnit]}
                clampBehavior="none"
                allowDecimal={false}
                allowNegative={false}
                style={{ flex: 1 }}
                {...form.getInputProps('notice')}
              />
              <Select
                label={t('queue.form.cancelNoticeUnit')}
                data={(Object.keys(noticeUnits) as NoticeUnit[]).map((value) => ({
                  value,
                  label: t(`queue.form.noticeUnits.${value}`),
                }))}
                allowDeselect={false}
                w={110}
                {...form.getInputProps('noticeUnit')}
              />
            </Group>
            <NumberInput
              label={t('queue.form.refundPercent')}
              description={t('queue.form.refundPercentHint')}
              min={0}
              max={100}
              suffix=" %"
              // Out of range is said by the contract's rule, not silently clamped.
              clampBehavior="none"
              allowDecimal={false}
              allowNegative={false}
              {...form.getInputProps('refundPercent')}
            />
          </SimpleGrid>
        ) : null}
        {mode !== 'walk_in' ? (
          <Stack gap="md">
            <NumberInput
              label={t('queue.form.changeCutoff')}
              description={t('queue.form.changeCutoffHint')}
              min={0}
              max={720}
              decimalScale={2}
              clampBehavior="none"
              allowNegative={false}
              suffix={` ${t('queue.form.noticeUnits.hours')}`}
              {...form.getInputProps('changeCutoffHours')}
            />
            <IntakeQuestionsEditor form={form} />
          </Stack>
        ) : null}
        <Group justify="flex-end" gap="sm">
          {onCancel ? (
            <Button variant="default" onClick={onCancel}>
              {t('actions.cancel')}
            </Button>
          ) : null}
          <Button type="submit" loading={loading}>
            {queue ? t('queue.form.save') : t('queue.form.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
