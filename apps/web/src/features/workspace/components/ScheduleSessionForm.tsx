import {
  ActionIcon,
  Button,
  Chip,
  Group,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { DatePickerInput, TimeInput } from '@mantine/dates';
import { useForm } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { Queue, ServiceType, SubQueue } from '@upnext/contract/queues';
import {
  MAX_SERVICES_PER_SESSION,
  type ScheduleResult,
  type ScheduleSessionInput,
  scheduleSessionInputSchema,
} from '@upnext/contract/sessions';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorNotice } from '../../../components/StateViews.tsx';
import { addDays, todayLocal } from '../../../entities/session/format.ts';
import { usePreviewSchedule, useScheduleSession } from '../api/scheduleSession.ts';
import { useCalendarLabels } from './calendarLabels.ts';
import { contractErrors } from './formErrors.ts';
import { notifySuccess } from './notify.ts';
import { SchedulePreview } from './SchedulePreview.tsx';

interface ServiceRow {
  key: string;
  serviceTypeId: string | null;
  slotMinutes: number | string;
  capacityPerSlot: number | string;
}

export interface ScheduleFormValues {
  kind: 'once' | 'weekly';
  date: string;
  weekdays: string[];
  until: string;
  /** A weekly series leaves out the dates that clash with another session. */
  skipConflicts: boolean;
  /** Dates of the series left out one by one from the preview ("Skip this date"). */
  skipDates: string[];
  subQueueId: string | null;
  startTime: string;
  endTime: string;
  capacity: number | string;
  online: boolean;
  notes: string;
  services: ServiceRow[];
}

const num = (value: number | string) => (value === '' ? Number.NaN : Number(value));
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** ISO weekday (1 = Monday ... 7 = Sunday) of a `YYYY-MM-DD` date. */
function isoWeekday(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return ((new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7) + 1;
}

function scheduleInput(queueId: string, values: ScheduleFormValues): ScheduleSessionInput {
  return {
    queueId,
    subQueueId: values.subQueueId,
    date: values.date,
    startTime: values.startTime,
    endTime: values.endTime,
    capacity: num(values.capacity),
    online: values.online,
    notes: values.notes.trim(),
    ...(values.kind === 'weekly' && values.skipConflicts ? { skipConflicts: true } : {}),
    ...(values.kind === 'weekly' && values.skipDates.length > 0
      ? { skipDates: [...values.skipDates].sort() }
      : {}),
    recurrence:
      values.kind === 'once'
        ? { kind: 'once' }
        : {
            kind: 'weekly',
            weekdays: values.weekdays.map(Number).sort((a, b) => a - b),
            until: values.until,
          },
    services: values.services.map((row) => ({
      serviceTypeId: row.serviceTypeId ?? '',
      slotMinutes: num(row.slotMinutes),
      capacityPerSlot: num(row.capacityPerSlot),
    })),
  };
}

function weekdayNames(locale: string): string[] {
  const format = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
  // 1 January 2024 was a Monday.
  return Array.from({ length: 7 }, (_, i) => format.format(new Date(Date.UTC(2024, 0, 1 + i))));
}

/** How far a new weekly series runs until the user says otherwise. */
const SERIES_DAYS = 28;

let rowCounter = 0;
const newRowKey = () => `service-${++rowCounter}`;

interface ScheduleSessionFormProps {
  queue: Queue;
  subQueues: SubQueue[];
  serviceTypes: ServiceType[];
  onScheduled: (result: ScheduleResult) => void;
}

/**
 * One-off or weekly schedule with services. "Check" asks the server for a dry run (nothing is
 * saved) and shows every session it would create with its conflicts; saving is possible only
 * from an up-to-date preview without conflicts.
 */
export function ScheduleSessionForm({
  queue,
  subQueues,
  serviceTypes,
  onScheduled,
}: ScheduleSessionFormProps) {
  const { t, i18n } = useTranslation('workspace');
  const calendarLabels = useCalendarLabels();
  const ids = useId();
  const preview = usePreviewSchedule();
  const schedule = useScheduleSession();
  const [checked, setChecked] = useState<{ key: string; result: ScheduleResult } | null>(null);
  const today = todayLocal();

  const form = useForm<ScheduleFormValues>({
    mode: 'controlled',
    initialValues: {
      kind: 'once',
      date: today,
      weekdays: [String(isoWeekday(today))],
      // A valid date from the start (an empty one reads "Invalid Date"): four weeks on.
      until: addDays(today, SERIES_DAYS),
      skipConflicts: false,
      skipDates: [],
      subQueueId: subQueues.length === 1 ? (subQueues[0]?.id ?? null) : null,
      startTime: '09:00',
      endTime: '12:00',
      capacity: 50,
      online: queue.online,
      notes: '',
      services: [],
    },
    // Skipped dates belong to one series: a new first date, last date or weekdays forgets them
    // (the server refuses a skipped date that is not in the series).
    onValuesChange: (next, previous) => {
      const seriesChanged =
        next.kind !== previous.kind ||
        next.date !== previous.date ||
        next.until !== previous.until ||
        next.weekdays.join() !== previous.weekdays.join();
      if (seriesChanged && next.skipDates.length > 0) form.setFieldValue('skipDates', []);
    },
    validate: (values) => {
      const errors = contractErrors(scheduleSessionInputSchema, scheduleInput(queue.id, values), {
        'recurrence.until': 'until',
        'recurrence.weekdays': 'weekdays',
        services: 'servicesError',
      });
      if (values.kind === 'weekly' && !values.until) errors.until = t('schedule.untilRequired');
      // The contract calls a missing service type "Invalid UUID": say what is missing instead.
      values.services.forEach((row, index) => {
        if (!row.serviceTypeId) {
          errors[`services.${index}.serviceTypeId`] = t('schedule.services.typeRequired');
        }
      });
      return errors;
    },
  });

  const values = form.getValues();
  const currentKey = JSON.stringify(scheduleInput(queue.id, values));
  const fresh = checked !== null && checked.key === currentKey;
  // Dates the server skips (skipConflicts) create no session and block nothing.
  const creating = checked ? checked.result.planned.filter((p) => !p.skipped).length : 0;
  const canSave = fresh && creating > 0 && checked.result.conflicts.length === 0;

  const runPreview = () => {
    const validation = form.validate();
    if (validation.hasErrors) return;
    // The latest values: "Skip this date" sets a field and checks again in one step.
    const input = scheduleInput(queue.id, form.getValues());
    const key = JSON.stringify(input);
    schedule.reset();
    preview.mutate(input, { onSuccess: (result) => setChecked({ key, result }) });
  };

  const setSkipped = (dates: string[]) => {
    form.setFieldValue('skipDates', dates);
    runPreview();
  };

  const save = () => {
    if (!canSave) return;
    schedule.mutate(scheduleInput(queue.id, values), {
      onSuccess: (result) => {
        notifySuccess(queue.name, t('schedule.saved', { count: result.sessions.length }));
        onScheduled(result);
      },
      // Someone may have scheduled an overlapping session meanwhile: check again.
      onError: () => runPreview(),
    });
  };

  const days = weekdayNames(i18n.language);
  const window = minutesOf(values.endTime || '00:00') - minutesOf(values.startTime || '00:00');
  const usedTypes = new Set(values.services.map((s) => s.serviceTypeId));
  const activeTypes = serviceTypes.filter((type) => type.active);

  return (
    <Stack gap="lg">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          runPreview();
        }}
        aria-describedby={`${ids}-hint`}
      >
        <Stack gap="lg">
          <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
            <Stack gap="md">
              <Title order={2} size="h3">
                {t('schedule.whenTitle')}
              </Title>
              <div role="radiogroup" aria-label={t('schedule.kind')}>
                <SegmentedControl
                  fullWidth
                  data={[
                    { value: 'once', label: t('schedule.once') },
                    { value: 'weekly', label: t('schedule.weekly') },
                  ]}
                  {...form.getInputProps('kind')}
                />
              </div>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <DatePickerInput
                  ariaLabels={calendarLabels}
                  label={values.kind === 'once' ? t('schedule.date') : t('schedule.firstDate')}
                  required
                  minDate={today}
                  valueFormat="ddd D MMM YYYY"
                  popoverProps={{ withinPortal: true }}
                  {...form.getInputProps('date')}
                  onChange={(value) => {
                    form.setFieldValue('date', value ?? '');
                    // A new weekly series starts on the chosen day's weekday.
                    if (value && form.getValues().weekdays.length <= 1) {
                      form.setFieldValue('weekdays', [String(isoWeekday(value))]);
                    }
                    // It never ends before it starts.
                    if (value && form.getValues().until < value) {
                      form.setFieldValue('until', addDays(value, SERIES_DAYS));
                    }
                  }}
                />
                {values.kind === 'weekly' ? (
                  <DatePickerInput
                    ariaLabels={calendarLabels}
                    label={t('schedule.until')}
                    required
                    minDate={values.date || today}
                    valueFormat="ddd D MMM YYYY"
                    popoverProps={{ withinPortal: true }}
                    {...form.getInputProps('until')}
                    onChange={(value) => form.setFieldValue('until', value ?? '')}
                  />
                ) : null}
              </SimpleGrid>
              {values.kind === 'weekly' ? (
                <Stack gap={6}>
                  <Text size="sm" fw={500} id={`${ids}-weekdays`}>
                    {t('schedule.weekdays')}
                  </Text>
                  <Chip.Group multiple {...form.getInputProps('weekdays')}>
                    <Group gap="xs" role="group" aria-labelledby={`${ids}-weekdays`}>
                      {days.map((name, index) => (
                        <Chip key={name} value={String(index + 1)} variant="outline">
                          {name}
                        </Chip>
                      ))}
                    </Group>
                  </Chip.Group>
                  {form.errors.weekdays ? (
                    <Text size="sm" c="var(--mantine-color-error)" role="alert">
                      {form.errors.weekdays}
                    </Text>
                  ) : null}
                </Stack>
              ) : null}
              <SimpleGrid cols={{ base: 2, sm: 3 }}>
                <TimeInput
                  label={t('schedule.startTime')}
                  required
                  {...form.getInputProps('startTime')}
                />
                <TimeInput
                  label={t('schedule.endTime')}
                  required
                  {...form.getInputProps('endTime')}
                />
                <NumberInput
                  label={t('schedule.capacity')}
                  description={t('schedule.capacityHint')}
                  required
                  min={0}
                  max={100000}
                  allowDecimal={false}
                  {...form.getInputProps('capacity')}
                />
              </SimpleGrid>
            </Stack>
          </Paper>

          <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
            <Stack gap="md">
              <Title order={2} size="h3">
                {t('schedule.whereTitle')}
              </Title>
              <Select
                label={t('schedule.subQueue')}
                description={
                  subQueues.length === 0 ? t('schedule.noSubQueuesYet') : t('schedule.subQueueHint')
                }
                data={subQueues.map((s) => ({ value: s.id, label: s.name }))}
                placeholder={t('schedule.noSubQueue')}
                clearable
                {...form.getInputProps('subQueueId')}
              />
              {values.kind === 'weekly' ? (
                <Switch
                  label={t('schedule.skipConflicts')}
                  description={t('schedule.skipConflictsHint')}
                  {...form.getInputProps('skipConflicts', { type: 'checkbox' })}
                />
              ) : null}
              <Switch
                label={t('schedule.online')}
                description={t('schedule.onlineHint')}
                {...form.getInputProps('online', { type: 'checkbox' })}
              />
              <Textarea
                label={t('schedule.notes')}
                description={t('schedule.notesHint')}
                autosize
                minRows={2}
                {...form.getInputProps('notes')}
              />
            </Stack>
          </Paper>

          <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
            <Stack gap="md">
              <div>
                <Title order={2} size="h3">
                  {t('schedule.services.title')}
                </Title>
                <Text size="sm" c="dimmed" mt={4}>
                  {queue.mode === 'walk_in'
                    ? t('schedule.services.introWalkIn')
                    : t('schedule.services.intro')}
                </Text>
              </div>
              {values.services.map((row, index) => {
                const slot = num(row.slotMinutes);
                const slots = slot > 0 && window > 0 ? Math.floor(window / slot) : 0;
                const type = serviceTypes.find((s) => s.id === row.serviceTypeId);
                return (
                  <Paper key={row.key} withBorder radius="md" p="sm" bg="gray.0">
                    <Stack gap="xs">
                      <Group align="flex-end" gap="sm" wrap="wrap">
                        <Select
                          label={t('schedule.services.type')}
                          required
                          data={activeTypes.map((s) => ({
                            value: s.id,
                            label: s.name,
                            disabled: usedTypes.has(s.id) && s.id !== row.serviceTypeId,
                          }))}
                          style={{ flex: '2 1 200px' }}
                          {...form.getInputProps(`services.${index}.serviceTypeId`)}
                          onChange={(value) => {
                            form.setFieldValue(`services.${index}.serviceTypeId`, value);
                            const chosen = serviceTypes.find((s) => s.id === value);
                            if (chosen) {
                              form.setFieldValue(
                                `services.${index}.slotMinutes`,
                                chosen.durationMinutes,
                              );
                            }
                          }}
                        />
                        <NumberInput
                          label={t('schedule.services.slotMinutes')}
                          required
                          min={1}
                          max={1440}
                          allowDecimal={false}
                          style={{ flex: '1 1 120px' }}
                          {...form.getInputProps(`services.${index}.slotMinutes`)}
                        />
                        <NumberInput
                          label={t('schedule.services.capacityPerSlot')}
                          required
                          min={0}
                          max={10000}
                          allowDecimal={false}
                          style={{ flex: '1 1 120px' }}
                          {...form.getInputProps(`services.${index}.capacityPerSlot`)}
                        />
                        <ActionIcon
                          variant="subtle"
                          color="red.9"
                          size={36}
                          aria-label={t('schedule.services.remove', {
                            name: type?.name ?? t('schedule.services.row', { n: index + 1 }),
                          })}
                          onClick={() => form.removeListItem('services', index)}
                        >
                          <IconTrash size={18} aria-hidden />
                        </ActionIcon>
                      </Group>
                      <Text size="xs" c="dimmed">
                        {t('schedule.services.slotsSummary', {
                          count: slots,
                          minutes: Number.isFinite(slot) ? slot : 0,
                          capacity: num(row.capacityPerSlot) || 0,
                        })}
                      </Text>
                    </Stack>
                  </Paper>
                );
              })}
              {form.errors.servicesError ? (
                <Text size="sm" c="var(--mantine-color-error)" role="alert">
                  {form.errors.servicesError}
                </Text>
              ) : null}
              {activeTypes.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t('schedule.services.noneDefined')}
                </Text>
              ) : (
                <Group>
                  <Button
                    variant="light"
                    leftSection={<IconPlus size={18} aria-hidden />}
                    disabled={
                      values.services.length >=
                      Math.min(MAX_SERVICES_PER_SESSION, activeTypes.length)
                    }
                    onClick={() =>
                      form.insertListItem('services', {
                        key: newRowKey(),
                        serviceTypeId: null,
                        slotMinutes: 15,
                        capacityPerSlot: 1,
                      })
                    }
                  >
                    {t('schedule.services.add')}
                  </Button>
                </Group>
              )}
            </Stack>
          </Paper>

          {checked ? (
            <SchedulePreview
              result={checked.result}
              stale={!fresh}
              skipping={
                values.kind === 'weekly'
                  ? {
                      skipDates: values.skipDates,
                      onSkip: (date) => setSkipped([...values.skipDates, date]),
                      onKeep: (date) => setSkipped(values.skipDates.filter((d) => d !== date)),
                      busy: preview.isPending,
                    }
                  : undefined
              }
            />
          ) : null}

          <ErrorNotice error={preview.error} title={t('schedule.previewFailed')} />

          <Stack gap={6}>
            <Group justify="flex-end" gap="sm">
              <Button
                type="submit"
                variant={canSave ? 'default' : 'filled'}
                loading={preview.isPending}
              >
                {checked ? t('schedule.checkAgain') : t('schedule.check')}
              </Button>
              <Button
                type="button"
                onClick={save}
                disabled={!canSave}
                loading={schedule.isPending}
                aria-describedby={`${ids}-hint`}
              >
                {fresh && canSave
                  ? t('schedule.create', { count: creating })
                  : t('schedule.createDisabled')}
              </Button>
            </Group>
            <Text size="sm" c="dimmed" ta="right" id={`${ids}-hint`}>
              {!checked
                ? t('schedule.hintCheckFirst')
                : !fresh
                  ? t('schedule.hintChanged')
                  : canSave
                    ? t('schedule.hintReady')
                    : t('schedule.hintConflicts')}
            </Text>
          </Stack>
          <ErrorNotice error={schedule.error} title={t('schedule.saveFailed')} />
        </Stack>
      </form>
    </Stack>
  );
}
