import { Badge } from '@mantine/core';
import type { SessionStatus } from '@upnext/contract/sessions';
import { useTranslation } from 'react-i18next';

/** Shade 9 on the light tint keeps the text at 4.5:1 or more; "open" is filled (the live one). */
const colors: Record<SessionStatus, string> = {
  scheduled: 'blue.9',
  open: 'teal.9',
  paused: 'yellow.9',
  closed: 'gray.8',
  cancelled: 'red.9',
};

/** Text and colour both carry the status, so it never depends on colour alone. */
export function SessionStatusBadge({ status }: { status: SessionStatus }) {
  const { t } = useTranslation('workspace');
  return (
    <Badge color={colors[status]} variant={status === 'open' ? 'filled' : 'light'} autoContrast>
      {t(`sessionStatus.${status}`)}
    </Badge>
  );
}
