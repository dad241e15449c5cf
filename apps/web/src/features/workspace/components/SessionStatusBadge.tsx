import { Badge } from '@mantine/core';
import type { SessionStatus } from '@upnext/contract/sessions';
import { useTranslation } from 'react-i18next';

const colors: Record<SessionStatus, string> = {
  scheduled: 'blue',
  open: 'teal',
  paused: 'yellow',
  closed: 'gray',
  cancelled: 'red',
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
