import { Stack, Text } from '@mantine/core';
import type { IntakeAnswer } from '@upnext/contract/intake';
import { useTranslation } from 'react-i18next';

/**
 * A token's answers to its queue's intake questions, each under the question as it was
 * asked: for its holder (My visits) and for staff (the live console, the session's tokens).
 */
export function TokenAnswers({
  answers,
  withTitle = true,
}: {
  answers: readonly IntakeAnswer[];
  withTitle?: boolean;
}) {
  const { t } = useTranslation('entities');
  if (answers.length === 0) return null;
  return (
    <Stack gap={2} data-testid="booking-answers">
      {withTitle ? (
        <Text size="sm" fw={600}>
          {t('token.answers')}
        </Text>
      ) : null}
      <dl style={{ margin: 0 }}>
        {answers.map((answer) => (
          <div key={answer.questionId}>
            <Text component="dt" size="xs" c="dimmed">
              {answer.label}
            </Text>
            <Text component="dd" size="sm" m={0} mb={4} style={{ whiteSpace: 'pre-wrap' }}>
              {answer.value}
            </Text>
          </div>
        ))}
      </dl>
    </Stack>
  );
}
