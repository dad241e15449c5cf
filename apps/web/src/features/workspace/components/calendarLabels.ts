import type { CalendarAriaLabels } from '@mantine/dates';
import { useTranslation } from 'react-i18next';

/** Names for the calendar's arrow and level buttons, which are icons only. */
export function useCalendarLabels(): CalendarAriaLabels {
  const { t } = useTranslation('workspace');
  return {
    nextMonth: t('calendar.nextMonth'),
    previousMonth: t('calendar.previousMonth'),
    nextYear: t('calendar.nextYear'),
    previousYear: t('calendar.previousYear'),
    nextDecade: t('calendar.nextDecade'),
    previousDecade: t('calendar.previousDecade'),
    monthLevelControl: t('calendar.chooseMonth'),
    yearLevelControl: t('calendar.chooseYear'),
  };
}
