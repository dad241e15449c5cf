import { Notifications } from '@mantine/notifications';

/** Notifications: top right, closing after 5000 ms (spec §8, §9). */
export function AppNotifications() {
  return <Notifications position="top-right" autoClose={5000} />;
}
