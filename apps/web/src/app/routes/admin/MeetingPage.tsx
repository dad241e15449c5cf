import { Box } from '@mantine/core';
import { useParams } from 'react-router';
import { MeetingScreen } from '../../../features/meeting/components/MeetingScreen.tsx';
import { MAIN_CONTENT_ID } from '../../components/SkipLink.tsx';

/** The meeting screen is full-window, outside the admin navigation. */
export function Component() {
  const {
    queueId = '',
    sessionId = '',
    meetingId = '',
  } = useParams<'queueId' | 'sessionId' | 'meetingId'>();
  return (
    <Box component="main" id={MAIN_CONTENT_ID} tabIndex={-1}>
      <MeetingScreen
        key={meetingId}
        queueId={queueId}
        sessionId={sessionId}
        meetingId={meetingId}
      />
    </Box>
  );
}
