import { notifications } from '@mantine/notifications';
import { i18n } from '../../../lib/i18n.ts';

/** A green confirmation at the top right, its close button named for screen readers. */
export function notifySuccess(message: string, title?: string): void {
  notifications.show({
    color: 'teal',
    title,
    message,
    withBorder: true,
    closeButtonProps: { 'aria-label': i18n.t('workspace:actions.closeNotice') },
  });
}
