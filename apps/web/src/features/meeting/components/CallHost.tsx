import { notifications } from '@mantine/notifications';
import { topics } from '@upnext/contract/realtime-topics';
import { buildPath, spaRoutes } from '@upnext/contract/routes';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useUserData } from '../../../entities/user/api.ts';
import { useLiveTopic } from '../../../lib/realtime-cache.ts';
import { realtime } from '../../../lib/stomp-client.ts';
import { useMeeting } from '../api/meeting.ts';
import '../api/meetingEvents.ts';
import { callController, useCall } from '../model/callStore.ts';
import { startRingtone } from '../model/ringtone.ts';
import { IncomingCallDialog } from './IncomingCallDialog.tsx';

/**
 * The app shell's part of calls (spec §2 "App shell"), mounted wherever a user is signed in:
 * listens on the user's meeting topic, rings (dialog and ringtone) on an incoming offer, and
 * opens the meeting screen once the remote track arrives after Answer.
 */
export function CallHost() {
  const { t } = useTranslation('meeting');
  const userData = useUserData();
  const subscribeId = userData.data?.subscribeId;
  const topic = subscribeId ? topics.meeting(subscribeId) : null;
  const view = useCall();
  const { phase, role, call, from, by } = view.state;
  const navigate = useNavigate();
  const location = useLocation();

  useEffect(
    () =>
      topic ? realtime.subscribe(topic, (body) => callController.handleMessage(body)) : undefined,
    [topic],
  );
  // The meeting's cached state follows the same topic (api/meetingEvents.ts).
  useLiveTopic(topic);

  // Signing out (this host unmounts) hangs up.
  useEffect(
    () => () => {
      callController.exit();
      callController.dismiss();
    },
    [],
  );

  const ringing = phase === 'ringing-in';
  useEffect(() => (ringing ? startRingtone() : undefined), [ringing]);

  const meeting = useMeeting(role === 'callee' ? (call?.meetingId ?? null) : null);
  const route = meeting.data
    ? buildPath(spaRoutes.adminMeeting, {
        queueId: meeting.data.queueId,
        sessionId: meeting.data.sessionId,
        meetingId: meeting.data.id,
      })
    : null;
  const onRoute = route !== null && location.pathname === route;
  const hasRemote = view.remoteStream !== null;

  // Spec §2: the full-screen meeting opens once the remote track arrives.
  useEffect(() => {
    if (role === 'callee' && hasRemote && route && !onRoute) {
      if (phase === 'connecting' || phase === 'active' || phase === 'reconnecting') {
        void navigate(route);
      }
    }
  }, [role, hasRemote, route, onRoute, phase, navigate]);

  // A call that ends before it was opened here: say so, and be ready for the next one.
  useEffect(() => {
    if (role !== 'callee' || onRoute) return;
    if (phase === 'missed') {
      notifications.show({ color: 'yellow', message: t('ended.missedCallee') });
    } else if (phase === 'ended' && by === 'other') {
      notifications.show({ message: t('ended.endedByOther') });
    } else if (phase === 'failed') {
      notifications.show({ color: 'red', message: t('ended.setup') });
    } else if (phase !== 'declined' && phase !== 'ended') {
      return;
    }
    callController.dismiss();
  }, [role, onRoute, phase, by, t]);

  const connecting = role === 'callee' && phase === 'connecting' && !hasRemote && !onRoute;
  return (
    <IncomingCallDialog
      opened={ringing || connecting}
      meeting={meeting.data ?? null}
      from={from}
      connecting={connecting}
      onAnswer={() => void callController.answer()}
      onDecline={() => callController.decline()}
    />
  );
}
