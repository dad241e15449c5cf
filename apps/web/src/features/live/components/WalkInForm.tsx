import { Button, Paper, Stack, Title } from '@mantine/core';
import { IconTicket } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Notice } from '../../../components/tones.tsx';
import { errorText } from '../../../lib/error-text.ts';
import { useWalkInForm } from '../hooks/useWalkInForm.ts';
import { WalkInFields } from './WalkInFields.tsx';

/**
 * Staff issue a walk-in token for a visitor at the desk: a name, optionally a phone, and the
 * answers to the queue's questions.
 */
export function WalkInForm({
  sessionId,
  queueId,
  country,
}: {
  sessionId: string;
  queueId: string;
  country: string;
}) {
  const { t } = useTranslation('live');
  const [issued, setIssued] = useState<string | null>(null);
  const walkIn = useWalkInForm(sessionId, queueId, country, (token) =>
    setIssued(token.displayNumber),
  );
  const { submit, pending, refusal } = walkIn;

  return (
    <Paper withBorder radius="lg" p="md" component="section" aria-label={t('walkIn.title')}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('walkIn.title')}
          </Title>
          <WalkInFields
            form={walkIn}
            labels={{
              name: t('walkIn.name'),
              phone: t('walkIn.phone'),
              phoneHint: t('walkIn.phoneHint'),
            }}
          />
          <Button
            type="submit"
            leftSection={<IconTicket size={16} aria-hidden />}
            loading={pending}
          >
            {t('walkIn.submit')}
          </Button>
          <div aria-live="polite">
            {issued ? <Notice tone="teal">{t('walkIn.issued', { number: issued })}</Notice> : null}
          </div>
          {refusal ? (
            <Notice tone="red" role="alert">
              {errorText(refusal)}
            </Notice>
          ) : null}
        </Stack>
      </form>
    </Paper>
  );
}
