import { useNotifications } from '@mantine/notifications';
import { lazy } from 'react';
import { OnceOpened } from './OnceOpened.tsx';

// Loaded with the first notification: most visits never show one.
const AppNotifications = lazy(() =>
  import('./AppNotifications.tsx').then((module) => ({ default: module.AppNotifications })),
);

/** The notifications' container, from the first notification on (the app's and the light start's). */
export function NotificationsOnDemand() {
  const shown = useNotifications().notifications.length > 0;
  return (
    <OnceOpened opened={shown}>
      <AppNotifications />
    </OnceOpened>
  );
}
