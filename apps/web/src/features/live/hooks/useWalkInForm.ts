import { useForm } from '@mantine/form';
import { INVALID_PHONE, toE164 } from '@upnext/contract/phone';
import type { QueueToken } from '@upnext/contract/tokens';
import { type FormEvent, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useIntakeAnswers } from '../../../entities/token/IntakeFields.tsx';
import { errorCode } from '../../../lib/error-text.ts';
import { newIdempotencyKey } from '../../../lib/idempotency.ts';
import { useIssueToken } from '../api/issueToken.ts';
import { useQueueIntakeQuestions } from '../api/queue.ts';

/**
 * A walk-in's name, optional phone and answers to the queue's questions, issued as a token for
 * `sessionId`: the desk's form and the reception kiosk's. The phone and the answers are checked
 * by the contract's rules (the phone in the company's country), as the server checks them; one
 * idempotency key per attempt, so a double tap issues one token.
 */
export function useWalkInForm(
  sessionId: string,
  queueId: string,
  country: string,
  onIssued: (token: QueueToken) => void,
) {
  const { t } = useTranslation('live');
  const issue = useIssueToken(sessionId);
  const attempt = useRef<string | null>(null);
  const form = useForm({
    initialValues: { visitorName: '', visitorPhone: '' },
    validate: {
      visitorName: (value) => (value.trim() ? null : t('walkIn.nameRequired')),
      visitorPhone: (value) =>
        value.trim() && toE164(value, country) === null ? t('walkIn.phoneInvalid') : null,
    },
  });
  // Known before the form can be sent (`pending` until then).
  const questions = useQueueIntakeQuestions(queueId);
  const intake = useIntakeAnswers(questions.data ?? []);
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const answers = intake.check();
    if (form.validate().hasErrors || !answers) return;
    const values = form.getValues();
    const phone = values.visitorPhone.trim();
    attempt.current ??= newIdempotencyKey();
    issue.mutate(
      {
        input: {
          sessionId,
          visitorName: values.visitorName.trim(),
          ...(phone ? { visitorPhone: phone } : {}),
          ...(answers.length > 0 ? { answers } : {}),
        },
        idempotencyKey: attempt.current,
      },
      {
        onSuccess: (token) => {
          attempt.current = null;
          form.reset();
          intake.reset();
          onIssued(token);
        },
        onError: (error) => {
          if (errorCode(error) === INVALID_PHONE) {
            attempt.current = null;
            form.setFieldError('visitorPhone', t('walkIn.phoneInvalid'));
          }
        },
      },
    );
  };
  /** A refusal other than the phone's, which shows on its field. */
  const refusal = issue.error && errorCode(issue.error) !== INVALID_PHONE ? issue.error : null;
  const pending = issue.isPending || questions.isPending;
  return { form, intake: intake.fields, submit, pending, refusal };
}

export type WalkInFormState = ReturnType<typeof useWalkInForm>;
