import { Avatar, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { Meeting } from '@upnext/contract/meetings';
import { spaRoutes } from '@upnext/contract/routes';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorCode, errorText } from '../../../lib/error-text.ts';
import { useMeeting } from '../api/meeting.ts';
import type { CallView } from '../model/callController.ts';
import { isLive } from '../model/callMachine.ts';
import { callController, useCall } from '../model/callStore.ts';
import { CallStage } from './CallStage.tsx';
import { initialsOf } from './initials.ts';
import classes from './Meeting.module.css';
import { PreCallCheck } from './PreCallCheck.tsx';

interface MeetingScreenProps {
  queueId: string;
  sessionId: string;
  meetingId: string;
}

/** Screens open on this browser's call; leaving the last one hangs up (after a StrictMode re-mount). */
let screensOpen = 0;

/**
 * `/admin/meeting/{queueId}/{sessionId}/{meetingId}` (spec §2 "Meeting screen"): for its two
 * parties only. The caller (staff) arrives here from the live console: the pre-call check
 * shows while the call rings. The visitor arrives after Answer. A finished call says how it
 * ended.
 */
export function MeetingScreen({ queueId, sessionId, meetingId }: MeetingScreenProps) {
  const { t } = useTranslation('meeting');
  const meeting = useMeeting(meetingId);
  const view = useCall();
  const goBack = useGoBack();
  const started = useRef(false);
  const data = meeting.data;
  const matches = data ? data.queueId === queueId && data.sessionId === sessionId : false;
  const mine = view.state.call?.meetingId === meetingId;

  useEffect(() => {
    screensOpen++;
    return () => {
      screensOpen--;
      setTimeout(() => {
        if (screensOpen > 0) return;
        callController.exit();
        callController.dismiss();
      }, 0);
    };
  }, []);

  // The caller rings as soon as the screen knows the meeting (the pre-call check shows meanwhile).
  useEffect(() => {
    if (!data || !matches || started.current) return;
    if (data.role !== 'staff' || data.state !== 'ringing') return;
    if (isLive(callController.getView().state.phase)) return;
    started.current = true;
    void callController.startCall({
      meetingId: data.id,
      sessionId: data.sessionId,
      tokenId: data.tokenId,
    });
  }, [data, matches]);

  if (meeting.isPending) {
    return (
      <div className={classes.page}>
        <Group gap="sm" role="status">
          <Loader size="sm" />
          <Text>{t('screen.loading')}</Text>
        </Group>
      </div>
    );
  }
  if (meeting.isError || !data || !matches) {
    const message = meeting.isError
      ? errorText(meeting.error, (code) =>
          code === 'meeting_not_found' || code === 'validation_failed'
            ? t('refusal.notFound')
            : undefined,
        )
      : t('refusal.wrongRoute');
    return (
      <Panel title={t('refusal.title')} testId="meeting-refusal">
        <Text role="alert" data-code={errorCode(meeting.error) ?? 'wrong_route'}>
          {message}
        </Text>
        <Button onClick={goBack}>{t('controls.back')}</Button>
      </Panel>
    );
  }

  const other = data.role === 'staff' ? data.visitorName : data.staffName;
  const phase = mine ? view.state.phase : 'idle';

  if (mine && (isLive(phase) || phase === 'failed') && phase !== 'ringing-in') {
    return (
      <CallStage
        meeting={data}
        view={view}
        otherName={other}
        onExit={() => {
          callController.exit();
          goBack();
        }}
      />
    );
  }
  if (mine && (phase === 'declined' || phase === 'missed' || phase === 'ended')) {
    return <EndPanel view={view} meeting={data} onBack={goBack} />;
  }
  // Not (or no longer) in this browser's call: what the server says about the meeting.
  if (data.state === 'ringing') {
    return (
      <Panel
        title={
          data.role === 'visitor'
            ? t('screen.waitingForCall', { name: other })
            : t('screen.calling', { name: other })
        }
        testId="meeting-waiting"
      >
        <Text size="sm" c="dimmed">
          {phase === 'ringing-in'
            ? t('screen.ringingHere', { name: other })
            : t('screen.waitingHint')}
        </Text>
        <PreCallCheck />
        <Button variant="default" onClick={goBack}>
          {t('controls.back')}
        </Button>
      </Panel>
    );
  }
  if (data.state === 'active') {
    return (
      <Panel title={t('screen.inProgress')} testId="meeting-rejoin">
        <Text size="sm" c="dimmed">
          {t('screen.inProgressHint', { name: other })}
        </Text>
        <PreCallCheck />
        <Group grow>
          <Button variant="default" onClick={goBack}>
            {t('controls.back')}
          </Button>
          <Button
            leftSection={<IconRefresh size={18} aria-hidden />}
            onClick={() =>
              void callController.rejoin({
                meetingId: data.id,
                sessionId: data.sessionId,
                tokenId: data.tokenId,
              })
            }
          >
            {t('controls.rejoin')}
          </Button>
        </Group>
      </Panel>
    );
  }
  return <EndPanel view={null} meeting={data} onBack={goBack} />;
}

/** How the call ended, from this browser's call when it has one, else from the server. */
function EndPanel({
  view,
  meeting,
  onBack,
}: {
  view: CallView | null;
  meeting: Meeting;
  onBack: () => void;
}) {
  const { t } = useTranslation('meeting');
  const caller = meeting.role === 'staff';
  const phase = view?.state.phase ?? meeting.state;
  const by = view?.state.by ?? null;
  let title: string;
  if (phase === 'declined') {
    title =
      by === 'me' || (!view && !caller) ? t('ended.declinedByMe') : t('ended.declinedByOther');
  } else if (phase === 'missed') {
    title = caller ? t('ended.missedCaller') : t('ended.missedCallee');
  } else if (phase === 'ended' && view) {
    title = by === 'me' ? t('ended.endedByMe') : t('ended.endedByOther');
  } else {
    title = t('ended.over');
  }
  const other = caller ? meeting.visitorName : meeting.staffName;
  return (
    <Panel title={title} testId="meeting-ended">
      <Group gap="sm">
        <Avatar radius="xl" color="brand">
          {initialsOf(other)}
        </Avatar>
        <Text size="sm" c="dimmed">
          {t('screen.with', { name: other })} ·{' '}
          {t('screen.token', { token: meeting.tokenLabel, queue: meeting.queueName })}
        </Text>
      </Group>
      <Button
        onClick={() => {
          callController.dismiss();
          onBack();
        }}
      >
        {t('controls.back')}
      </Button>
    </Panel>
  );
}

function Panel({
  title,
  testId,
  children,
}: {
  title: string;
  testId: string;
  children: React.ReactNode;
}) {
  return (
    <div className={classes.page} data-testid={testId}>
      <Stack className={classes.panel} gap="md">
        <Title order={1} size="h3" aria-live="polite">
          {title}
        </Title>
        {children}
      </Stack>
    </div>
  );
}

/** Back where the user came from (the live console, My sessions), or to My sessions. */
function useGoBack() {
  const navigate = useNavigate();
  return () => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) void navigate(-1);
    else void navigate(spaRoutes.adminMySessions);
  };
}
