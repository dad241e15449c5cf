import type { SessionBoard } from '@upnext/contract/tokens';
import { useTranslation } from 'react-i18next';
import { Notice, type Tone } from '../../../components/tones.tsx';
import { useSessionBoard } from '../../../entities/session/board.ts';

const tones: Partial<Record<SessionBoard['status'], Tone>> = {
  paused: 'yellow',
  closed: 'gray',
  cancelled: 'red',
};

/**
 * Says at once when the session of a live token is paused, closed or cancelled (its topic's
 * events update the session's board entry). Nothing while it runs normally, or if the session
 * cannot be read.
 */
export function SessionNotice({ sessionId }: { sessionId: string }) {
  const { t } = useTranslation('visit');
  const board = useSessionBoard(sessionId, { errorShownInline: true });
  const status = board.data?.status;
  const tone = status ? tones[status] : undefined;
  return (
    <div aria-live="polite" aria-atomic="true">
      {status && tone ? (
        <Notice tone={tone} title={t(`sessionNotice.${status}.title`)} data-testid="session-notice">
          {t(`sessionNotice.${status}.body`)}
        </Notice>
      ) : null}
    </div>
  );
}
