import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { type UseFormReturnType, useForm as useMantineForm } from '@mantine/form';
import { IconPlus } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import {
  EmptyBlock,
  ErrorNotice,
  LoadError,
  LoadingList,
} from '../../../components/StateViews.tsx';
import type { QueueChildApi } from '../api/queueChildren.ts';
import { contractErrors } from './formErrors.ts';
import { ItemRow } from './ItemRow.tsx';

interface Named {
  id: string;
  name: string;
}

/** What every part's panel is given: its queue, and whether the caller may change it. */
export interface PanelProps {
  queueId: string;
  canManage: boolean;
}

/** What every part's add or edit form is given (`item` null: a new one). */
export interface FormProps<Item> {
  queueId: string;
  item: Item | null;
  onDone: () => void;
}

interface QueuePanelProps<Item extends Named, Create, Update> extends PanelProps {
  /** Its API; `api.kind` names its texts in `workspace.json` (intro, add, empty..., delete...). */
  api: QueueChildApi<{ item: Item; create: Create; update: Update }>;
  emptyIcon: ReactNode;
  /** What a row says under the item's name: a dimmed line, and a note when it has one. */
  details: (item: Item) => { line: string; note?: string | undefined };
  badges?: (item: Item) => ReactNode;
  form: (props: FormProps<Item>) => ReactNode;
}

/**
 * One part of a queue in its drawer (sub-queues, service types, service areas): the list,
 * an add/edit dialog around the part's own form, and a delete that asks first.
 */
export function Panel<Item extends Named, Create, Update>({
  queueId,
  canManage,
  api,
  emptyIcon,
  details,
  badges,
  form,
}: QueuePanelProps<Item, Create, Update>) {
  const { t } = useTranslation('workspace');
  const texts = api.kind;
  const list = api.useList(queueId);
  const remove = api.useDelete(queueId);
  const [editing, setEditing] = useState<Item | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Item | null>(null);

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text c="dimmed" size="sm" style={{ flex: '1 1 200px' }}>
          {t(`${texts}.intro`)}
        </Text>
        {canManage ? (
          <Button
            leftSection={<IconPlus size={18} aria-hidden />}
            onClick={() => setEditing('new')}
          >
            {t(`${texts}.add`)}
          </Button>
        ) : null}
      </Group>
      {list.isPending ? (
        <LoadingList rows={2} />
      ) : list.isError ? (
        <LoadError error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.length === 0 ? (
        <EmptyBlock
          icon={emptyIcon}
          title={t(`${texts}.emptyTitle`)}
          body={t(`${texts}.emptyBody`)}
          order={3}
        />
      ) : (
        <Stack
          component="ul"
          gap="xs"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          aria-label={t(`${texts}.title`)}
        >
          {list.data.map((item) => {
            const { line, note } = details(item);
            return (
              <ItemRow
                key={item.id}
                title={item.name}
                badges={badges?.(item)}
                onEdit={canManage ? () => setEditing(item) : undefined}
                onDelete={canManage ? () => setDeleting(item) : undefined}
              >
                <Text size="sm" c="dimmed">
                  {line}
                </Text>
                {note ? <Text size="sm">{note}</Text> : null}
              </ItemRow>
            );
          })}
        </Stack>
      )}
      <Modal
        closeButtonProps={{ 'aria-label': t('actions.closeDialog') }}
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t(`${texts}.addTitle`) : t(`${texts}.editTitle`)}
      >
        {editing !== null
          ? form({
              queueId,
              item: editing === 'new' ? null : editing,
              onDone: () => setEditing(null),
            })
          : null}
      </Modal>
      {deleting ? (
        <ConfirmDialog
          opened
          title={t(`${texts}.deleteTitle`)}
          body={t(`${texts}.deleteBody`, { name: deleting.name })}
          confirmLabel={t('actions.delete')}
          danger
          loading={remove.isPending}
          error={remove.error}
          onConfirm={() => remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
          onClose={() => {
            setDeleting(null);
            remove.reset();
          }}
        />
      ) : null}
    </Stack>
  );
}

/**
 * A part's form state, validated by the part's contract schema (`fieldOf` maps body fields)
 * and by `check`, for rules the schema cannot run alone (a phone read in the company's country).
 */
export function useForm<Values extends { name: string }>(
  api: { parts: { createBody: z.ZodType } },
  initialValues: Values,
  toBody: (values: Values) => unknown,
  fieldOf?: Record<string, string>,
  check?: (values: Values) => Record<string, string>,
) {
  return useMantineForm<Values>({
    mode: 'controlled',
    initialValues,
    validate: (values) => ({
      ...contractErrors(api.parts.createBody, toBody(values), fieldOf),
      ...check?.(values),
    }),
  });
}

/**
 * One part's add or edit form: its name, its own `children` fields, then save (create when
 * new, else update, then `onDone`) with the refusal shown in the form.
 */
export function Form<Item extends Named, Create, Update, Values extends { name: string }>({
  api,
  queueId,
  item,
  onDone,
  form,
  toBody,
  nameHint,
  children,
}: FormProps<Item> & {
  api: QueueChildApi<{ item: Item; create: Create; update: Update }>;
  form: UseFormReturnType<Values>;
  toBody: (values: Values) => Create & Update;
  nameHint?: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation('workspace');
  const create = api.useCreate(queueId);
  const update = api.useUpdate(queueId);
  const error = create.error ?? update.error;
  const save = (values: Values) => {
    const body = toBody(values);
    if (item) update.mutate({ id: item.id, body }, { onSuccess: onDone });
    else create.mutate(body, { onSuccess: onDone });
  };
  return (
    <form noValidate onSubmit={form.onSubmit(save)}>
      <Stack gap="md">
        <TextInput
          label={t(`${api.kind}.name`)}
          description={nameHint}
          required
          data-autofocus
          {...form.getInputProps('name')}
        />
        {children}
        <ErrorNotice error={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" loading={create.isPending || update.isPending}>
            {t('actions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
