import type { TokenStatus } from '@upnext/contract/tokens';
import { useTranslation } from 'react-i18next';
import { Tag, type Tone } from '../../../components/tones.tsx';

const tones: Record<TokenStatus, Tone> = {
  pending_payment: 'grape',
  booked: 'blue',
  waiting: 'yellow',
  called: 'brand',
  serving: 'teal',
  served: 'gray',
  no_show: 'red',
  cancelled: 'gray',
};

export function TokenStatusTag({ status }: { status: TokenStatus }) {
  const { t } = useTranslation('live');
  return <Tag tone={tones[status]}>{t(`status.${status}`)}</Tag>;
}
