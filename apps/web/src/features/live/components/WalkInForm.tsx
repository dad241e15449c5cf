import { Button, Paper, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconTicket } from '@tabler/icons-react';
import { INVALID_PHONE, toE164 } from '@upnext/contract/phone';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Notice } from '../../../components/tones.tsx';
import { errorCode, errorText } from '../../../lib/error-text.ts';
import { useIssueToken } from '../api/issueToken.ts';

/** Staff issue a walk-in token for a visitor at the desk: a name and, optionally, a phone. */
export function WalkInForm({ sessionId, country }: { sessionId: string; country: string }) {
  const { t } = useTranslation('live');
  const issue = useIssueToken(sessionId);
  const [issued, setIssued] = useState<string | null>(null);
  const form = useForm({
    initialValues: { visitorName: '', visitorPhone: '' },
    validate: {
      visitorName: (value) => (value.trim() ? null : t('walkIn.nameRequired')),
      // The contract's phone rule, in the company's country as the server reads it.
      visitorPhone: (value) =>
        value.trim() && toE164(value, country) === null ? t('walkIn.phoneInvalid') : null,
    },
  });

  const submit = form.onSubmit((values) => {
    setIssued(null);
    const phone = values.visitorPhone.trim();
    issue.mutate(
      {
        sessionId,
        visitorName: values.visitorName.trim(),
        ...(phone ? { visitorPhone: phone } : {}),
      },
      {
        onSuccess: (token) => {
          setIssued(token.displayNumber);
          form.reset();
        },
        onError: (error) => {
          if (errorCode(error) === INVALID_PHONE) {
            form.setFieldError('visitorPhone', t('walkIn.phoneInvalid'));
          }
        },
      },
    );
  });

  return (
    <Paper withBorder radius="lg" p="md" component="section" aria-label={t('walkIn.title')}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('walkIn.title')}
          </Title>
          <TextInput
            label={t('walkIn.name')}
            required
            autoComplete="off"
            maxLength={100}
            {...form.getInputProps('visitorName')}
          />
          <TextInput
            label={t('walkIn.phone')}
            description={t('walkIn.phoneHint')}
            type="tel"
            autoComplete="off"
            {...form.getInputProps('visitorPhone')}
          />
          <Button
            type="submit"
            leftSection={<IconTicket size={16} aria-hidden />}
            loading={issue.isPending}
          >
            {t('walkIn.submit')}
          </Button>
          <div aria-live="polite">
            {issued ? <Notice tone="teal">{t('walkIn.issued', { number: issued })}</Notice> : null}
          </div>
          {issue.error && errorCode(issue.error) !== INVALID_PHONE ? (
            <Notice tone="red" role="alert">
              {errorText(issue.error)}
            </Notice>
          ) : null}
        </Stack>
      </form>
    </Paper>
  );
}
