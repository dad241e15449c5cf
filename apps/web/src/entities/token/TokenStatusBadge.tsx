import { Badge, type BadgeProps } from '@mantine/core';
import type { TokenStatus } from '@upnext/contract/tokens';
import { useTranslation } from 'react-i18next';
import { Tag, type Tone } from '../../components/tones.tsx';

/** The one colour of each token status, on every screen. */
const tones: Record<TokenStatus, Tone> = {
  pending_payment: 'grape',
  booked: 'blue',
  waiting: 'yellow',
  called: 'teal',
  serving: 'brand',
  served: 'gray',
  no_show: 'red',
  cancelled: 'gray',
};

type Props = Omit<BadgeProps, 'color' | 'variant' | 'children'> & { status: TokenStatus };

/** Text and colour both carry the status; "called" is filled to stand out. */
export function TokenStatusBadge({ status, ...props }: Props) {
  const { t } = useTranslation('entities');
  const label = t(`token.status.${status}`);
  if (status === 'called') {
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
