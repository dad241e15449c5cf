import { MantineThemeProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';

/**
 * Notifications: top right, closing after 5000 ms (spec §8, §9). Their close buttons are
 * named (Mantine leaves them unnamed, an accessibility violation), for every notification.
 */
export function AppNotifications() {
  const { t } = useTranslation('common');
  return (
    <MantineThemeProvider
      theme={{
        components: {
          Notification: {
            defaultProps: { closeButtonProps: { 'aria-label': t('notifications.close') } },
          },
        },
      }}
    >
      <Notifications position="top-right" autoClose={5000} />
    </MantineThemeProvider>
  );
}
