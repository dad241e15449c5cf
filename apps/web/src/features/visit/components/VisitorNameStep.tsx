import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Asked once, before a visitor's first token: the name staff call them by. It becomes their
 * profile's name (the server keeps the first one given), so later visits skip this step.
 */
export function VisitorNameStep({
  onSubmit,
  onCancel,
}: {
  onSubmit: (name: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('visit');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setError(t('name.required'));
      return;
    }
    onSubmit(trimmed);
  };
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Title order={2}>{t('name.title')}</Title>
          <Text c="dimmed">{t('name.body')}</Text>
          <TextInput
            label={t('name.label')}
            required
            autoComplete="name"
            maxLength={100}
            value={name}
            error={error}
            onChange={(event) => {
              setName(event.currentTarget.value);
              setError(null);
            }}
            data-autofocus
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onCancel}>
              {t('name.back')}
            </Button>
            <Button type="submit">{t('name.continue')}</Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
