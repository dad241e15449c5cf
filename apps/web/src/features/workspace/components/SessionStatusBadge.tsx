import { Badge } from '@mantine/core';
import type { SessionStatus } from '@upnext/contract/sessions';
import { useTranslation } from 'react-i18next';
import { Tag, type Tone } from '../../../components/tones.tsx';

const tones: Record<SessionStatus, Tone> = {
  scheduled: 'blue',
  open: 'teal',
  paused: 'yellow',
  closed: 'gray',
  cancelled: 'red',
};

/** Text and colour both carry the status; "open" (the live one) is filled to stand out. */
export function SessionStatusBadge({ status }: { status: SessionStatus }) {
  const { t } = useTranslation('workspace');
  const label = t(`sessionStatus.${status}`);
  if (status === 'open') {
    return (
      <Badge color="teal.9" variant="filled">
        {label}
      </Badge>
    );
  }
  return <Tag tone={tones[status]}>{label}</Tag>;
}
