import {
  Button,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Textarea,
} from '@mantine/core';
import { DateInput, TimeInput } from '@mantine/dates';
import { useForm } from '@mantine/form';
import {
  type EditSessionInput,
  editSessionInputSchema,
  type Session,
  type SessionScope,
} from '@upnext/contract/sessions';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorNotice } from '../../../components/StateViews.tsx';
import { Notice } from '../../../components/tones.tsx';
import { useEditSession } from '../api/editSession.ts';
import { subQueuesApi } from '../api/queueChildren.ts';
import { useCalendarLabels } from './calendarLabels.ts';
import { contractErrors } from './formErrors.ts';
import { ScopeChoice } from './ScopeChoice.tsx';

interface Values {
  date: string;
  subQueueId: string | null;
  startTime: string;
  endTime: string;
  capacity: number | string;
  online: boolean;
  notes: string;
}

/** Only what changed goes to the server, so "following" sessions keep their own dates. */
function changesOf(session: Session, values: Values, scope: SessionScope) {
  const changes: EditSessionInput['changes'] = {};
  if (scope === 'this' && values.date !== session.date) changes.date = values.date;
  if (values.subQueueId !== session.subQueueId) changes.subQueueId = values.subQueueId;
  if (values.startTime !== session.startTime) changes.startTime = values.startTime;
  if (values.endTime !== session.endTime) changes.endTime = values.endTime;
  const capacity = values.capacity === '' ? Number.NaN : Number(values.capacity);
  if (capacity !== session.capacity) changes.capacity = capacity;
  if (values.online !== session.online) changes.online = values.online;
  if (values.notes.trim() !== session.notes) changes.notes = values.notes.trim();
  return changes;
}

export function EditSessionForm({ session, onDone }: { session: Session; onDone: () => void }) {
  const { t } = useTranslation('workspace');
  const calendarLabels = useCalendarLabels();
  const edit = useEditSession();
  const subQueues = subQueuesApi.useList(session.queueId);
  const [scope, setScope] = useState<SessionScope>('this');
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: {
      date: session.date,
      subQueueId: session.subQueueId,
      startTime: session.startTime,
      endTime: session.endTime,
      capacity: session.capacity,
      online: session.online,
      notes: session.notes,
    },
    validate: (values) => {
      const changes = changesOf(session, values, scope);
      if (Object.keys(changes).length === 0) return { form: t('sessions.edit.nothingChanged') };
      return contractErrors(
        editSessionInputSchema,
        { sessionId: session.id, scope, changes },
        {
          'changes.date': 'date',
          'changes.startTime': 'startTime',
          'changes.endTime': 'endTime',
          'changes.capacity': 'capacity',
          'changes.notes': 'notes',
          changes: 'form',
        },
      );
    },
  });

  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) =>
        edit.mutate(
          { sessionId: session.id, scope, changes: changesOf(session, values, scope) },
          { onSuccess: onDone },
        ),
      )}
    >
      <Stack gap="md">
        {session.seriesId ? <ScopeChoice value={scope} onChange={setScope} /> : null}
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <DateInput
            ariaLabels={calendarLabels}
            label={t('sessions.edit.date')}
            valueFormat="YYYY-MM-DD"
            disabled={scope === 'following'}
            description={scope === 'following' ? t('sessions.edit.dateOnlyThis') : undefined}
            {...form.getInputProps('date')}
          />
          <Select
            label={t('schedule.subQueue')}
            data={(subQueues.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
            placeholder={t('schedule.noSubQueue')}
            clearable
            {...form.getInputProps('subQueueId')}
          />
          <TimeInput label={t('schedule.startTime')} {...form.getInputProps('startTime')} />
          <TimeInput label={t('schedule.endTime')} {...form.getInputProps('endTime')} />
          <NumberInput
            label={t('schedule.capacity')}
            min={0}
            max={100000}
            allowDecimal={false}
            {...form.getInputProps('capacity')}
          />
        </SimpleGrid>
        <Switch
          label={t('schedule.online')}
          {...form.getInputProps('online', { type: 'checkbox' })}
        />
        <Textarea
          label={t('schedule.notes')}
          autosize
          minRows={2}
          {...form.getInputProps('notes')}
        />
        {form.errors.form ? (
          <Notice tone="yellow" role="alert">
            {form.errors.form}
          </Notice>
        ) : null}
        <ErrorNotice error={edit.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" loading={edit.isPending}>
            {t('actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
