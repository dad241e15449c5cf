import { Button, Text } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { type TurnAlert, useTurnAlert } from '../hooks/useTurnAlert.ts';

/**
 * Alerts for a visitor's page left in the background (`useTurnAlert`), and the button that
 * allows them: browsers notify and play sound only after the visitor asked for it.
 */
export function TurnAlerts({
  alert,
  number,
  counter,
}: {
  alert: TurnAlert | null;
  number: string;
  counter: string | null;
}) {
  const { t } = useTranslation('visit');
  const message = useCallback(
    (which: TurnAlert) =>
      which === 'called'
        ? counter
          ? t('link.alertCalledAt', { number, counter })
          : t('link.alertCalled', { number })
        : t('link.alertApproaching', { number }),
    [t, number, counter],
  );
  const turn = useTurnAlert(alert, message);
  if (turn.permission === 'granted' && turn.soundOn) {
    return (
      <Text size="sm" c="dimmed">
        {t('link.notifyOn')}
      </Text>
    );
  }
  return (
    <Button
      variant="light"
      leftSection={<IconBell size={18} aria-hidden />}
      onClick={() => void turn.enable()}
    >
      {t('link.notifyMe')}
    </Button>
  );
}
