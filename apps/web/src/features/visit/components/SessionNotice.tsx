import { Stack } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { QueueToken } from '@upnext/contract/tokens';
import { useTranslation } from 'react-i18next';
import { Notice, type Tone } from '../../../components/tones.tsx';

const tones: Partial<Record<QueueToken['sessionStatus'], Tone>> = {
  paused: 'yellow',
  closed: 'gray',
  cancelled: 'red',
};

/**
 * What the token's session tells its holder: that it is paused, closed or cancelled (at once:
 * the session topic's events update the token), and the staff's notes for visitors.
 */
export function SessionNotice({
  status,
  notes: given,
}: {
  status: QueueToken['sessionStatus'];
  notes: string;
}) {
  const { t } = useTranslation('visit');
  const tone = tones[status];
  const notes = given.trim();
  return (
    <Stack gap="xs" aria-live="polite" aria-atomic="true">
      {tone ? (
        <Notice tone={tone} title={t(`sessionNotice.${status}.title`)} data-testid="session-notice">
          {t(`sessionNotice.${status}.body`)}
        </Notice>
      ) : null}
      {notes ? (
        <Notice
          tone="blue"
          icon={<IconInfoCircle aria-hidden />}
          title={t('sessionNotice.notesTitle')}
          data-testid="session-notes"
        >
          {notes}
        </Notice>
      ) : null}
    </Stack>
  );
}
