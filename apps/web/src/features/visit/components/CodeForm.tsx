import { Button, Group, Paper, Stack, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * `/join`'s first step: the queue's code. Apart from the rest of the flow (`JoinFlow`), which
 * the page loads once there is a code: the page a QR code or a visitor opens paints and
 * hydrates with this form alone.
 */
export function CodeForm({
  onSubmit,
  initial = '',
}: {
  onSubmit: (code: string) => void;
  initial?: string;
}) {
  const { t } = useTranslation('visit');
  const [value, setValue] = useState(initial);
  function submit(event: FormEvent) {
    event.preventDefault();
    const code = value.trim();
    if (code) onSubmit(code);
  }
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
      <form onSubmit={submit}>
        <Stack gap="md">
          <TextInput
            label={t('join.codeLabel')}
            description={t('join.codeDescription')}
            placeholder={t('join.codePlaceholder')}
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
            autoCapitalize="characters"
            autoComplete="off"
            required
          />
          <Group>
            <Button type="submit" leftSection={<IconSearch size={18} aria-hidden />}>
              {t('join.find')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
