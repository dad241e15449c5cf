import { ActionIcon, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface ItemRowProps {
  title: string;
  children?: ReactNode;
  badges?: ReactNode;
  onEdit?: () => void;
  onDelete?: () => void;
}

/** One part of a queue (sub-queue, service type, service area) in its drawer, with edit and delete. */
export function ItemRow({ title, children, badges, onEdit, onDelete }: ItemRowProps) {
  const { t } = useTranslation('workspace');
  return (
    <Paper withBorder radius="md" p="sm" component="li">
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Text fw={600}>{title}</Text>
            {badges}
          </Group>
          {children}
        </Stack>
        <Group gap={4} wrap="nowrap">
          {onEdit ? (
            <Tooltip label={t('actions.edit')}>
              <ActionIcon
                variant="subtle"
                color="gray"
                size="lg"
                aria-label={t('actions.editNamed', { name: title })}
                onClick={onEdit}
              >
                <IconPencil size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
          ) : null}
          {onDelete ? (
            <Tooltip label={t('actions.delete')}>
              <ActionIcon
                variant="subtle"
                color="red.9"
                size="lg"
                aria-label={t('actions.deleteNamed', { name: title })}
                onClick={onDelete}
              >
                <IconTrash size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
          ) : null}
        </Group>
      </Group>
    </Paper>
  );
}
