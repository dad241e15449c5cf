import { Badge, type BadgeProps } from '@mantine/core';
import type { SessionStatus } from '@upnext/contract/sessions';
import { useTranslation } from 'react-i18next';
import { Tag, type Tone } from '../../components/tones.tsx';

/** The one colour of each session status, on every screen. */
const tones: Record<SessionStatus, Tone> = {
  scheduled: 'blue',
  open: 'teal',
  paused: 'yellow',
  closed: 'gray',
  cancelled: 'red',
};

type Props = Omit<BadgeProps, 'color' | 'variant' | 'children'> & { status: SessionStatus };

/** Text and colour both carry the status; "open" (the live one) is filled to stand out. */
export function SessionStatusBadge({ status, ...props }: Props) {
  const { t } = useTranslation('entities');
  const label = t(`session.status.${status}`);
  if (status === 'open') {
    return (
      <Badge color="teal.9" variant="filled" {...props}>
        {label}
      </Badge>
    );
  }
  return (
    <Tag tone={tones[status]} {...props}>
      {label}
    </Tag>
  );
}
