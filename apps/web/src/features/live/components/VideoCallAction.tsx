import { Button } from '@mantine/core';
import { IconVideo } from '@tabler/icons-react';
import { buildPath, spaRoutes } from '@upnext/contract/routes';
import type { QueueToken } from '@upnext/contract/tokens';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorCode } from '../../../lib/error-text.ts';

interface VideoCallActionProps {
  token: QueueToken;
  starting: boolean;
  disabled: boolean;
  /** The last refusal of startMeeting (the card shows its text). */
  error: unknown;
  onStart: () => void;
}

/**
 * "Video call" on the token being called or served (only for a queue that offers video): rings
 * the visitor; the meeting screen takes over from there. When the token already has a call in
 * progress, a link goes back to it.
 */
export function VideoCallAction({
  token,
  starting,
  disabled,
  error,
  onStart,
}: VideoCallActionProps) {
  const { t } = useTranslation('live');
  const inProgress =
    errorCode(error) === 'meeting_in_progress' ? meetingIdOf(error as { details?: unknown }) : null;
  return (
    <>
      <Button
        variant="filled"
        color="brand"
        leftSection={<IconVideo size={16} aria-hidden />}
        loading={starting}
        disabled={disabled && !starting}
        onClick={onStart}
      >
        {t('actions.videoCall')}
      </Button>
      {inProgress ? (
        <Button
          component={Link}
          variant="light"
          to={buildPath(spaRoutes.adminMeeting, {
            queueId: token.queueId,
            sessionId: token.sessionId,
            meetingId: inProgress,
          })}
        >
          {t('actions.goToCall')}
        </Button>
      ) : null}
    </>
  );
}

function meetingIdOf(error: { details?: unknown }): string | null {
  const details = error.details;
  if (typeof details === 'object' && details !== null && 'meetingId' in details) {
    const id = (details as { meetingId: unknown }).meetingId;
    return typeof id === 'string' ? id : null;
  }
  return null;
}
