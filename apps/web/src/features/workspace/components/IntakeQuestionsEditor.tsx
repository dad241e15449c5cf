import {
  ActionIcon,
  Button,
  Group,
  Paper,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { INTAKE_QUESTIONS_MAX, intakeQuestionKinds } from '@upnext/contract/intake';
import { useTranslation } from 'react-i18next';

/** A question as the form edits it: a choice's options one per line. */
export type IntakeQuestionValues = {
  id: string;
  label: string;
  helpText: string;
  kind: (typeof intakeQuestionKinds)[number];
  optionsText: string;
  required: boolean;
};

/** A short id, unique enough within one queue's ten questions. */
const newQuestionId = () => `q-${crypto.randomUUID().slice(0, 8)}`;

/**
 * The queue's intake questions (issue 16): what visitors answer when they book, in order; a
 * text answer or one of a choice's options, required or not. Checked by the contract's schema.
 */
export function IntakeQuestionsEditor<V extends { intakeQuestions: IntakeQuestionValues[] }>({
  form,
}: {
  form: UseFormReturnType<V>;
}) {
  const { t } = useTranslation('workspace');
  const questions = form.getValues().intakeQuestions;
  const path = (index: number, field: keyof IntakeQuestionValues) =>
    `intakeQuestions.${index}.${field}`;
  return (
    <Stack gap="sm" component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
      <Text component="legend" fw={600}>
        {t('queue.intake.title')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('queue.intake.hint')}
      </Text>
      {questions.map((question, index) => {
        const number = index + 1;
        return (
          <Paper key={question.id} withBorder radius="md" p="sm">
            <Stack gap="xs">
              <Group justify="space-between" wrap="nowrap">
                <Text size="sm" fw={600}>
                  {t('queue.intake.number', { number })}
                </Text>
                <Group gap={4} wrap="nowrap">
                  <ActionIcon
                    variant="subtle"
                    disabled={index === 0}
                    aria-label={t('queue.intake.up', { number })}
                    onClick={() =>
                      form.reorderListItem('intakeQuestions', { from: index, to: index - 1 })
                    }
                  >
                    <IconArrowUp size={18} aria-hidden />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    disabled={index === questions.length - 1}
                    aria-label={t('queue.intake.down', { number })}
                    onClick={() =>
                      form.reorderListItem('intakeQuestions', { from: index, to: index + 1 })
                    }
                  >
                    <IconArrowDown size={18} aria-hidden />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="red.9"
                    aria-label={t('queue.intake.remove', { number })}
                    onClick={() => form.removeListItem('intakeQuestions', index)}
                  >
                    <IconTrash size={18} aria-hidden />
                  </ActionIcon>
                </Group>
              </Group>
              <TextInput
                label={t('queue.intake.label')}
                required
                {...form.getInputProps(path(index, 'label'))}
              />
              <TextInput
                label={t('queue.intake.helpText')}
                {...form.getInputProps(path(index, 'helpText'))}
              />
              <Group gap="md" align="flex-end">
                <Select
                  label={t('queue.intake.kind')}
                  data={intakeQuestionKinds.map((value) => ({
                    value,
                    label: t(`queue.intake.kinds.${value}`),
                  }))}
                  allowDeselect={false}
                  w={180}
                  {...form.getInputProps(path(index, 'kind'))}
                />
                <Switch
                  label={t('queue.intake.required')}
                  mb={8}
                  {...form.getInputProps(path(index, 'required'), { type: 'checkbox' })}
                />
              </Group>
              {question.kind === 'choice' ? (
                <Textarea
                  label={t('queue.intake.options')}
                  description={t('queue.intake.optionsHint')}
                  autosize
                  minRows={2}
                  maxRows={8}
                  {...form.getInputProps(path(index, 'optionsText'))}
                />
              ) : null}
            </Stack>
          </Paper>
        );
      })}
      <Group>
        <Button
          variant="light"
          leftSection={<IconPlus size={18} aria-hidden />}
          disabled={questions.length >= INTAKE_QUESTIONS_MAX}
          onClick={() =>
            form.insertListItem('intakeQuestions', {
              id: newQuestionId(),
              label: '',
              helpText: '',
              kind: 'text',
              optionsText: '',
              required: false,
            } satisfies IntakeQuestionValues as never)
          }
        >
          {t('queue.intake.add')}
        </Button>
        {questions.length >= INTAKE_QUESTIONS_MAX ? (
          <Text size="xs" c="dimmed">
            {t('queue.intake.max', { max: INTAKE_QUESTIONS_MAX })}
          </Text>
        ) : null}
      </Group>
    </Stack>
  );
}
