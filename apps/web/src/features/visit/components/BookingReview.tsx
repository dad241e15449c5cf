import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import {
  checkIntakeAnswers,
  type IntakeAnswerInput,
  type IntakeProblem,
} from '@upnext/contract/intake';
import { PAYMENT_HOLD_MINUTES } from '@upnext/contract/payments';
import type { Queue } from '@upnext/contract/queues';
import type { Session, SessionService, Slot } from '@upnext/contract/sessions';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../entities/payment/format.ts';
import { formatDay, shortTime } from '../../../entities/session/format.ts';
import { ChangeRule } from './ChangeRule.tsx';
import { IntakeFields } from './IntakeFields.tsx';

/** The slot the visitor picked, with what the review shows of it. */
export type PickedSlot = { session: Session; service: SessionService; slot: Slot };

interface BookingReviewProps {
  queue: Queue;
  picked: PickedSlot;
  busy: boolean;
  onConfirm: (answers: IntakeAnswerInput) => void;
  onBack: () => void;
}

/**
 * The confirmation step of a booking (issue 16): what is booked, when (in the session's own
 * zone), the price, the queue's questions and its cancellation rule. Nothing is booked before
 * Confirm; the answers are checked by the contract's rule first, as the server will.
 */
export function BookingReview({ queue, picked, busy, onConfirm, onBack }: BookingReviewProps) {
  const { t, i18n } = useTranslation('visit');
  const [values, setValues] = useState<Record<string, string>>({});
  const [problems, setProblems] = useState<IntakeProblem[]>([]);
  const { session, service, slot } = picked;
  const questions = queue.intakeQuestions;
  // The step replaces the list it came from: take the reader (and the focus) to its heading.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);

  function submit(event: FormEvent) {
    event.preventDefault();
    const answers = questions.map((question) => ({
      questionId: question.id,
      value: values[question.id] ?? '',
    }));
    const checked = checkIntakeAnswers(questions, answers);
    setProblems(checked.problems);
    if (checked.problems.length > 0) {
      // The first question to fix gets the focus (a choice: its first option).
      const field = document.querySelector<HTMLElement>(
        `[data-testid="intake-${checked.problems[0]?.questionId}"]`,
      );
      (field?.querySelector<HTMLElement>('input') ?? field)?.focus();
      return;
    }
    onConfirm(checked.answers.map(({ questionId, value }) => ({ questionId, value })));
  }

  const rows: Array<[string, string]> = [
    [t('review.service'), service.serviceTypeName],
    [t('review.date'), formatDay(session.date, i18n.language, { year: true })],
    [
      t('review.time'),
      t('review.timeValue', {
        start: shortTime(slot.startTime),
        end: shortTime(slot.endTime),
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
              {t('review.subtitle', { company: queue.company.name, queue: queue.name })}
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
              <IntakeFields
                questions={questions}
                values={values}
                problems={problems}
                onChange={(id, value) => {
                  setValues((current) => ({ ...current, [id]: value }));
                  setProblems((current) => current.filter((p) => p.questionId !== id));
                }}
              />
            </Stack>
          ) : null}
          <ChangeRule cutoffMinutes={queue.changeCutoffMinutes} />
          {queue.priceMinor !== null ? (
            <Text size="sm" c="dimmed">
              {t('join.paidHint', { minutes: PAYMENT_HOLD_MINUTES })}
            </Text>
          ) : null}
          <Group gap="sm">
            <Button type="submit" loading={busy}>
              {t('review.confirm')}
            </Button>
            <Button variant="default" onClick={onBack} disabled={busy}>
              {t('review.back')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
