import { Button, Stack, Text } from '@mantine/core';
import { IconVideo } from '@tabler/icons-react';
import { buildPath, spaRoutes } from '@upnext/contract/routes';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Notice } from '../../../components/tones.tsx';
import { useRingingCalls } from '../api/ringingCalls.ts';

/**
 * "A video call is waiting" on the visitor's token (issue 12): staff are ringing about this
 * token. The app shell's dialog rings anyway; this stays visible while it rings and leads to
 * the meeting screen.
 */
export function CallWaiting({ tokenId }: { tokenId: string }) {
  const { t } = useTranslation('visit');
  const calls = useRingingCalls();
  const call = calls.data?.find((meeting) => meeting.tokenId === tokenId);
  if (!call) return null;
  return (
    <Notice
      tone="grape"
      icon={<IconVideo aria-hidden />}
      title={t('callWaiting.title')}
      role="status"
      data-testid="call-waiting"
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm">
          {t('callWaiting.body', {
            name: call.staffName,
            company: call.companyName,
            token: call.tokenLabel,
          })}
        </Text>
        <Button
          component={Link}
          size="compact-md"
          color="grape"
          to={buildPath(spaRoutes.adminMeeting, {
            queueId: call.queueId,
            sessionId: call.sessionId,
            meetingId: call.id,
          })}
        >
          {t('callWaiting.open')}
        </Button>
      </Stack>
    </Notice>
  );
}
