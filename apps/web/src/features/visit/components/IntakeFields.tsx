import { Radio, Stack, Textarea } from '@mantine/core';
import {
  INTAKE_ANSWER_MAX,
  type IntakeProblem,
  type IntakeQuestion,
} from '@upnext/contract/intake';
import { useTranslation } from 'react-i18next';

interface IntakeFieldsProps {
  questions: readonly IntakeQuestion[];
  values: Readonly<Record<string, string>>;
  onChange: (questionId: string, value: string) => void;
  /** Problems found by the contract's rule (checkIntakeAnswers), shown at their fields. */
  problems: readonly IntakeProblem[];
}

/** The queue's intake questions as form fields: a text box or a set of choices each. */
export function IntakeFields({ questions, values, onChange, problems }: IntakeFieldsProps) {
  const { t } = useTranslation('visit');
  const errorOf = (id: string) => {
    const problem = problems.find((candidate) => candidate.questionId === id);
    return problem ? t(`review.problem.${problem.reason}`) : undefined;
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
            value={values[question.id] ?? ''}
            onChange={(value) => onChange(question.id, value)}
            error={errorOf(question.id)}
            data-testid={`intake-${question.id}`}
          >
            <Stack gap={6} mt={6}>
              {question.options.map((option) => (
                <Radio key={option} value={option} label={option} />
              ))}
            </Stack>
          </Radio.Group>
        ) : (
          <Textarea
            key={question.id}
            label={question.label}
            description={question.helpText || undefined}
            required={question.required}
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
