import { Box, Container } from '@mantine/core';
import { IconVideo } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { ScreenPlaceholder } from '../../components/ScreenPlaceholder.tsx';
import { MAIN_CONTENT_ID } from '../../components/SkipLink.tsx';

/** The meeting screen is full-window, outside the admin navigation. */
export function Component() {
  const { sessionId = '' } = useParams<'sessionId'>();
  return (
    <Box component="main" id={MAIN_CONTENT_ID} tabIndex={-1} mih="100dvh" bg="gray.0" py={48}>
      <Container size="md">
        <ScreenPlaceholder
          i18nKey="admin.meeting"
          icon={<IconVideo aria-hidden />}
          values={{ sessionId }}
        />
      </Container>
    </Box>
  );
}
