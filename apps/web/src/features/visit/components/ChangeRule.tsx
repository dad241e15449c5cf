import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatInstant } from '../../../entities/token/format.ts';
import { noticeText } from './refundRule.ts';

/**
 * The queue's cancellation window in words: before booking (its cut-off), and on a booking
 * (until when, from the token's `changeUntil`; the server holds visitors to it).
 */
export function ChangeRule({
  cutoffMinutes,
  changeUntil,
}: {
  cutoffMinutes?: number;
  changeUntil?: string | null;
}) {
  const { t, i18n } = useTranslation('visit');
  let text: string;
  if (changeUntil) {
    text =
      Date.parse(changeUntil) > Date.now()
        ? t('review.changeUntil', { when: formatInstant(changeUntil, i18n.language) })
        : t('review.changeClosed');
  } else if (cutoffMinutes) {
    text = t('review.changeRule', { notice: noticeText(t, cutoffMinutes) });
  } else {
    text = t('review.changeAnytime');
  }
  return (
    <Text size="sm" data-testid="change-rule">
      {text}
    </Text>
  );
}
