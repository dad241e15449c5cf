import { Badge } from '@mantine/core';
import type { TokenStatus } from '@upnext/contract/tokens';
import { useTranslation } from 'react-i18next';
import { Tag, type Tone } from '../../../components/tones.tsx';

const tones: Record<TokenStatus, Tone> = {
  pending_payment: 'yellow',
  booked: 'blue',
  waiting: 'brand',
  called: 'teal',
  serving: 'grape',
  served: 'gray',
  no_show: 'red',
  cancelled: 'gray',
};

/** Text and colour both carry the status; "called" is filled to stand out. */
export function TokenStatusBadge({ status }: { status: TokenStatus }) {
  const { t } = useTranslation('visit');
  const label = t(`token.status.${status}`);
  if (status === 'called') {
    return (
      <Badge color="teal.9" variant="filled">
        {label}
      </Badge>
    );
  }
  return <Tag tone={tones[status]}>{label}</Tag>;
}
