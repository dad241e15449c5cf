import { z } from 'zod';
import { textSchema } from './common.ts';

/**
 * A queue's intake questions (issue 16, "booking like Cal.com"): what a visitor answers when
 * booking. Managers keep an ordered list on the queue; a booking stores its answers with the
 * question's label as it was asked, so later edits of the questions do not rewrite them.
 */

export const INTAKE_QUESTIONS_MAX = 10;
export const INTAKE_OPTIONS_MAX = 12;
export const INTAKE_ANSWER_MAX = 1000;
export const intakeQuestionKinds = ['text', 'choice'] as const;

/** A question's own id: short, stable while it is edited, unique in its queue's list. */
const questionIdSchema = z.string().regex(/^[a-z0-9-]{1,36}$/, 'Letters, digits and dashes');

export const intakeQuestionSchema = z
  .object({
    id: questionIdSchema,
    label: textSchema(200, { min: 1 }),
    helpText: textSchema(300).default(''),
    kind: z.enum(intakeQuestionKinds),
    /** The choices of a `choice` question (2 or more, each once); none for `text`. */
    options: z
      .array(textSchema(100, { min: 1 }))
      .max(INTAKE_OPTIONS_MAX)
      .default([]),
    required: z.boolean(),
  })
  .strict()
  .superRefine((question, context) => {
    if (question.kind === 'choice' && question.options.length < 2) {
      context.addIssue({
        code: 'custom',
        path: ['options'],
        message: 'A choice needs at least 2 options',
      });
    }
    if (question.kind === 'text' && question.options.length > 0) {
      context.addIssue({
        code: 'custom',
        path: ['options'],
        message: 'A text question has no options',
      });
    }
    if (new Set(question.options).size !== question.options.length) {
      context.addIssue({ code: 'custom', path: ['options'], message: 'Each option only once' });
    }
  })
  .meta({ id: 'IntakeQuestion' });
export type IntakeQuestion = z.output<typeof intakeQuestionSchema>;

export const intakeQuestionsSchema = z
  .array(intakeQuestionSchema)
  .max(INTAKE_QUESTIONS_MAX)
  .refine(
    (questions) => new Set(questions.map((question) => question.id)).size === questions.length,
    'Each question needs its own id',
  );

/** What a booking sends: one value per question answered (a choice's value is its option). */
export const intakeAnswerInputSchema = z
  .array(
    z
      .object({
        questionId: questionIdSchema,
        value: textSchema(INTAKE_ANSWER_MAX, { multiline: true }),
      })
      .strict(),
  )
  .max(INTAKE_QUESTIONS_MAX)
  .meta({ id: 'IntakeAnswersInput' });
export type IntakeAnswerInput = z.output<typeof intakeAnswerInputSchema>;

/** An answer as kept with the token: the question as it was asked, and the value given. */
export const intakeAnswerSchema = z
  .object({ questionId: z.string(), label: z.string(), value: z.string() })
  .meta({ id: 'IntakeAnswer' });
export type IntakeAnswer = z.infer<typeof intakeAnswerSchema>;

/** Why an answer is refused, by question (the server's 400 and the form's messages agree). */
export type IntakeProblem = {
  questionId: string;
  reason: 'required' | 'not_an_option' | 'unknown_question' | 'repeated';
};

/**
 * The one rule for answers: every answer names a question of the list once, a required
 * question has a non-empty answer, a choice's answer is one of its options. Empty answers to
 * optional questions are dropped. Answers come back in the questions' order, with their labels.
 */
export function checkIntakeAnswers(
  questions: readonly IntakeQuestion[],
  answers: readonly IntakeAnswerInput[number][],
): { answers: IntakeAnswer[]; problems: IntakeProblem[] } {
  const problems: IntakeProblem[] = [];
  const given = new Map<string, string>();
  for (const answer of answers) {
    if (!questions.some((question) => question.id === answer.questionId)) {
      problems.push({ questionId: answer.questionId, reason: 'unknown_question' });
    } else if (given.has(answer.questionId)) {
      problems.push({ questionId: answer.questionId, reason: 'repeated' });
    } else {
      given.set(answer.questionId, answer.value.trim());
    }
  }
  const kept: IntakeAnswer[] = [];
  for (const question of questions) {
    const value = given.get(question.id) ?? '';
    if (value === '') {
      if (question.required) problems.push({ questionId: question.id, reason: 'required' });
      continue;
    }
    if (question.kind === 'choice' && !question.options.includes(value)) {
      problems.push({ questionId: question.id, reason: 'not_an_option' });
      continue;
    }
    kept.push({ questionId: question.id, label: question.label, value });
  }
  return { answers: kept, problems };
}
