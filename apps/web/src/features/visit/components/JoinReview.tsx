import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { IntakeAnswerInput } from '@upnext/contract/intake';
import { PAYMENT_HOLD_MINUTES } from '@upnext/contract/payments';
import type { Queue } from '@upnext/contract/queues';
import type { Session, SessionService, Slot } from '@upnext/contract/sessions';
import { type FormEvent, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../entities/payment/format.ts';
import { formatDay, shortTime } from '../../../entities/session/format.ts';
import { IntakeFields, useIntakeAnswers } from '../../../entities/token/IntakeFields.tsx';
import { ChangeRule } from './ChangeRule.tsx';

/** What the visitor chose: a session's walk-in line, or a slot of one of its services. */
export type Picked = { session: Session; booking?: { service: SessionService; slot: Slot } };

interface JoinReviewProps {
  queue: Queue;
  picked: Picked;
  busy: boolean;
  onConfirm: (answers: IntakeAnswerInput) => void;
  onBack: () => void;
}

/**
 * The confirmation step (issue 16): what is taken, when (in the session's own zone), the
 * price, the queue's questions and, for a booking, its cancellation rule. Every booking comes
 * here; a walk-in token only when the queue asks questions. Nothing is taken before Confirm;
 * the answers are checked by the contract's rule first, as the server will.
 */
export function JoinReview({ queue, picked, busy, onConfirm, onBack }: JoinReviewProps) {
  const { t, i18n } = useTranslation('visit');
  const { session, booking } = picked;
  const questions = queue.intakeQuestions;
  const intake = useIntakeAnswers(questions);
  // The step replaces the list it came from: take the reader (and the focus) to its heading.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);

  function submit(event: FormEvent) {
    event.preventDefault();
    const answers = intake.check();
    if (answers) onConfirm(answers);
  }

  const times = booking?.slot ?? session;
  const rows: Array<[string, string]> = [
    [t('review.service'), booking ? booking.service.serviceTypeName : t('review.walkIn')],
    [t('review.date'), formatDay(session.date, i18n.language, { year: true })],
    [
      t('review.time'),
      t('review.timeValue', {
        start: shortTime(times.startTime),
        end: shortTime(times.endTime),
        timezone: session.timezone,
      }),
    ],
  ];
  if (session.subQueueName) rows.push([t('review.where'), session.subQueueName]);
  if (queue.priceMinor !== null && queue.currency) {
    rows.push([t('review.price'), formatMoney(queue.priceMinor, queue.currency, i18n.language)]);
  }

  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'xl' }}
      component="section"
      aria-labelledby="review-title"
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="lg">
          <Stack gap={4}>
            <Title order={3} id="review-title" ref={heading} tabIndex={-1}>
              {t('review.title')}
            </Title>
            <Text c="dimmed" size="sm">
              {t(booking ? 'review.subtitle' : 'review.subtitleWalkIn', {
                company: queue.company.name,
                queue: queue.name,
              })}
            </Text>
          </Stack>
          <dl
            style={{
              margin: 0,
              display: 'grid',
              gridTemplateColumns: 'max-content 1fr',
              gap: '6px 16px',
            }}
          >
            {rows.map(([term, value]) => (
              <div key={term} style={{ display: 'contents' }}>
                <Text component="dt" c="dimmed" size="sm">
                  {term}
                </Text>
                <Text component="dd" m={0} fw={600} data-testid={`review-${term}`}>
                  {value}
                </Text>
              </div>
            ))}
          </dl>
          {questions.length > 0 ? (
            <Stack gap="sm">
              <Title order={4}>{t('review.questions')}</Title>
              <IntakeFields {...intake.fields} />
            </Stack>
          ) : null}
          {booking ? <ChangeRule cutoffMinutes={queue.changeCutoffMinutes} /> : null}
          {queue.priceMinor !== null ? (
            <Text size="sm" c="dimmed">
              {t('join.paidHint', { minutes: PAYMENT_HOLD_MINUTES })}
            </Text>
          ) : null}
          <Group gap="sm">
            <Button type="submit" loading={busy}>
              {t(booking ? 'review.confirm' : 'review.confirmWalkIn')}
            </Button>
            <Button variant="default" onClick={onBack} disabled={busy}>
              {t(booking ? 'review.back' : 'review.backWalkIn')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
