import { useForm } from '@mantine/form';
import { INVALID_PHONE, toE164 } from '@upnext/contract/phone';
import type { QueueToken } from '@upnext/contract/tokens';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { errorCode } from '../../../lib/error-text.ts';
import { newIdempotencyKey } from '../../../lib/idempotency.ts';
import { useIssueToken } from '../api/issueToken.ts';

/**
 * A walk-in's name and optional phone, issued as a token for `sessionId`: the desk's form and
 * the reception kiosk's. The phone is checked by the contract's rule in the company's country,
 * as the server reads it; one idempotency key per attempt, so a double tap issues one token.
 */
export function useWalkInForm(
  sessionId: string,
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
  const submit = form.onSubmit((values) => {
    const phone = values.visitorPhone.trim();
    attempt.current ??= newIdempotencyKey();
    issue.mutate(
      {
        input: {
          sessionId,
          visitorName: values.visitorName.trim(),
          ...(phone ? { visitorPhone: phone } : {}),
        },
        idempotencyKey: attempt.current,
      },
      {
        onSuccess: (token) => {
          attempt.current = null;
          form.reset();
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
  });
  /** A refusal other than the phone's, which shows on its field. */
  const refusal = issue.error && errorCode(issue.error) !== INVALID_PHONE ? issue.error : null;
  return { form, submit, pending: issue.isPending, refusal };
}

export type WalkInForm = ReturnType<typeof useWalkInForm>['form'];
