import { type MantineSize, Radio, Stack, Textarea } from '@mantine/core';
import {
  checkIntakeAnswers,
  INTAKE_ANSWER_MAX,
  type IntakeAnswerInput,
  type IntakeProblem,
  type IntakeQuestion,
} from '@upnext/contract/intake';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The answers being given to a queue's questions, and `check`, which applies the contract's
 * rule as the server will: the answers to send, or null with the problems shown at their
 * fields and the first of them focused. The join page's review, the desk and the kiosk use it.
 */
export function useIntakeAnswers(questions: readonly IntakeQuestion[]) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [problems, setProblems] = useState<IntakeProblem[]>([]);

  function check(): IntakeAnswerInput | null {
    const given = questions.map((question) => ({
      questionId: question.id,
      value: values[question.id] ?? '',
    }));
    const checked = checkIntakeAnswers(questions, given);
    setProblems(checked.problems);
    if (checked.problems.length > 0) {
      // A choice's first option takes the focus; a text question, its box.
      const field = document.querySelector<HTMLElement>(
        `[data-testid="intake-${checked.problems[0]?.questionId}"]`,
      );
      (field?.querySelector<HTMLElement>('input') ?? field)?.focus();
      return null;
    }
    return checked.answers.map(({ questionId, value }) => ({ questionId, value }));
  }

  return {
    fields: {
      questions,
      values,
      problems,
      onChange: (questionId: string, value: string) => {
        setValues((current) => ({ ...current, [questionId]: value }));
        setProblems((current) => current.filter((problem) => problem.questionId !== questionId));
      },
    },
    check,
    /** For the next visitor (the desk's and the kiosk's forms). */
    reset: () => {
      setValues({});
      setProblems([]);
    },
  };
}

interface IntakeFieldsProps {
  questions: readonly IntakeQuestion[];
  values: Readonly<Record<string, string>>;
  onChange: (questionId: string, value: string) => void;
  /** Problems found by the contract's rule (checkIntakeAnswers), shown at their fields. */
  problems: readonly IntakeProblem[];
  size?: MantineSize;
}

/** The queue's intake questions as form fields: a text box or a set of choices each. */
export function IntakeFields({ questions, values, onChange, problems, size }: IntakeFieldsProps) {
  const { t } = useTranslation('entities');
  const errorOf = (id: string) => {
    const problem = problems.find((candidate) => candidate.questionId === id);
    return problem ? t(`intake.problem.${problem.reason}`) : undefined;
  };
  return (
    <Stack gap="md">
      {questions.map((question) =>
        question.kind === 'choice' ? (
          <Radio.Group
            key={question.id}
            label={question.label}
            description={question.helpText || undefined}
            withAsterisk={question.required}
            size={size}
            value={values[question.id] ?? ''}
            onChange={(value) => onChange(question.id, value)}
            error={errorOf(question.id)}
            data-testid={`intake-${question.id}`}
          >
            <Stack gap={6} mt={6}>
              {question.options.map((option) => (
                <Radio key={option} value={option} label={option} size={size} />
              ))}
            </Stack>
          </Radio.Group>
        ) : (
          <Textarea
            key={question.id}
            label={question.label}
            description={question.helpText || undefined}
            required={question.required}
            size={size}
            value={values[question.id] ?? ''}
            onChange={(event) => onChange(question.id, event.currentTarget.value)}
            error={errorOf(question.id)}
            maxLength={INTAKE_ANSWER_MAX}
            autosize
            minRows={2}
            data-testid={`intake-${question.id}`}
          />
        ),
      )}
    </Stack>
  );
}
