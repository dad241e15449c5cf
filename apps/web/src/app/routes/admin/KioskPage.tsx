import { Box } from '@mantine/core';
import { useParams } from 'react-router';
import { Kiosk } from '../../../features/live/components/Kiosk.tsx';
import { MAIN_CONTENT_ID } from '../../components/SkipLink.tsx';

/** The reception kiosk is full-window, outside the admin navigation: nothing else to reach. */
export function Component() {
  const { sessionId = '' } = useParams<'sessionId'>();
  return (
    <Box component="main" id={MAIN_CONTENT_ID} tabIndex={-1}>
      <Kiosk sessionId={sessionId} />
    </Box>
  );
}
