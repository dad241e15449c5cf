import { ActionIcon, Avatar, Button, Indicator, Stack, Text, Tooltip } from '@mantine/core';
import {
  IconMaximize,
  IconMessageCircle,
  IconMicrophone,
  IconMicrophoneOff,
  IconMinimize,
  IconPhoneOff,
  IconRefresh,
  IconScreenShare,
  IconScreenShareOff,
  IconVideo,
  IconVideoOff,
} from '@tabler/icons-react';
import type { Meeting } from '@upnext/contract/meetings';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Tag } from '../../../components/tones.tsx';
import { useCurrentUser } from '../../../lib/auth-session.ts';
import { ChatDrawer } from '../chat/ChatDrawer.tsx';
import { ChatNotice } from '../chat/ChatNotice.tsx';
import { useMeetingChat } from '../chat/useMeetingChat.ts';
import { useVideoStream } from '../hooks/useMediaStream.ts';
import type { CallView } from '../model/callController.ts';
import { callController } from '../model/callStore.ts';
import { initialsOf } from './initials.ts';
import classes from './Meeting.module.css';
import { DeviceNotices, PreCallCheck } from './PreCallCheck.tsx';

/** Spec §9: the controls hide after 3000 ms without the mouse moving. */
const controlsHideMs = 3000;

interface CallStageProps {
  meeting: Meeting;
  view: CallView;
  otherName: string;
  onExit: () => void;
}

/**
 * The full-screen meeting (spec §2): the other side's video full size, one's own as a small
 * preview, a picture or initials when a camera is off, and the control bar.
 */
export function CallStage({ meeting, view, otherName, onExit }: CallStageProps) {
  const { t } = useTranslation('meeting');
  const user = useCurrentUser();
  const stage = useRef<HTMLElement | null>(null);
  // The chat drawer portals into the stage, so it shows in full screen too.
  const [stageElement, setStageElement] = useState<HTMLElement | null>(null);
  const stageRef = useCallback((element: HTMLElement | null) => {
    stage.current = element;
    setStageElement(element);
  }, []);
  const chat = useMeetingChat(view.chatChannel);
  const [controlsShown, reveal] = useAutoHide(controlsHideMs);
  const fullScreen = useFullScreen(stage);
  const phase = view.state.phase;

  const remoteRef = useVideoStream(view.remoteStream);
  const localStream = view.local?.stream ?? null;
  const showLocalVideo = Boolean(localStream?.getVideoTracks().length) && !view.cameraOff;
  const localRef = useVideoStream(showLocalVideo ? localStream : null);
  const ownName = user?.displayName ?? user?.email ?? user?.phone ?? '';
  const remoteVisible = view.remoteStream !== null && !view.remoteVideoOff;

  let status: ReactNode = null;
  if (phase === 'ringing-out') {
    status = (
      <Stack className={classes.panel} gap="sm" data-testid="precall-check">
        <Text fw={700} size="lg" aria-live="polite">
          {t('screen.calling', { name: otherName })}
        </Text>
        <Text size="sm" c="dimmed">
          {t('screen.callingHint')}
        </Text>
        <PreCallCheck />
      </Stack>
    );
  } else if (phase === 'failed') {
    const lost = view.state.failure === 'connection_lost';
    status = (
      <Stack className={classes.panel} gap="sm" role="alert">
        <Text fw={700} size="lg">
          {lost ? t('ended.lost') : t('ended.setup')}
        </Text>
        <Text size="sm">{lost ? t('ended.lostHint') : t('ended.setupHint')}</Text>
        <Button
          leftSection={<IconRefresh size={18} aria-hidden />}
          onClick={() => void callController.rejoin()}
        >
          {t('controls.rejoin')}
        </Button>
      </Stack>
    );
  } else if (!remoteVisible) {
    let line: string;
    if (phase === 'connecting') line = t('screen.connecting');
    else if (phase === 'reconnecting') line = t('screen.reconnecting');
    else line = t('screen.remoteCameraOff', { name: otherName });
    status = (
      <>
        <Avatar size={120} radius={120} color="brand" variant="filled" alt="">
          {initialsOf(otherName)}
        </Avatar>
        <Text fw={600} size="lg" aria-live="polite" data-testid="remote-status">
          {line}
        </Text>
      </>
    );
  }

  return (
    <section
      ref={stageRef}
      className={classes.stage}
      aria-label={t('screen.region')}
      data-testid="meeting-stage"
      data-phase={phase}
      onMouseMove={reveal}
      onTouchStart={reveal}
      onKeyDown={reveal}
    >
      {view.remoteStream ? (
        // biome-ignore lint/a11y/useMediaCaption: a live call has no captions to offer
        <video
          ref={remoteRef}
          className={`${classes.remoteVideo} ${remoteVisible ? '' : classes.hidden}`}
          autoPlay
          playsInline
          aria-label={t('screen.remoteVideo', { name: otherName })}
          data-testid="remote-video"
          data-video-off={view.remoteVideoOff}
        />
      ) : null}
      {status ? <div className={classes.center}>{status}</div> : null}

      <div className={classes.topBar}>
        <Text fw={600}>{t('screen.with', { name: otherName })}</Text>
        <Text size="sm" c="gray.4">
          {t('screen.token', { token: meeting.tokenLabel, queue: meeting.queueName })}
        </Text>
        {view.remoteMuted ? (
          <Tag tone="red" data-testid="remote-muted">
            {t('screen.remoteMuted', { name: otherName })}
          </Tag>
        ) : null}
        {view.micMuted ? <Tag tone="yellow">{t('screen.youAreMuted')}</Tag> : null}
        {view.sharing ? <Tag tone="blue">{t('screen.sharing')}</Tag> : null}
      </div>

      {phase !== 'ringing-out' ? (
        <div className={classes.selfView} data-testid="local-preview">
          {showLocalVideo ? (
            <video
              ref={localRef}
              className={classes.mirrored}
              muted
              autoPlay
              playsInline
              aria-label={t('screen.ownVideo')}
            />
          ) : (
            <Stack align="center" justify="center" h="100%" gap={4}>
              <Avatar src={user?.avatarUrl ?? null} size={56} radius="xl" color="brand" alt="">
                {initialsOf(ownName)}
              </Avatar>
              <Text size="xs">{t('screen.cameraOffLabel')}</Text>
            </Stack>
          )}
        </div>
      ) : null}

      {phase !== 'ringing-out' && view.local && (view.local.camera || view.local.microphone) ? (
        <div style={{ position: 'absolute', top: 56, left: 16, right: 16, maxWidth: 520 }}>
          <DeviceNotices local={view.local} />
        </div>
      ) : null}

      <ControlBar
        view={view}
        shown={controlsShown}
        fullScreen={fullScreen.active}
        onFullScreen={fullScreen.toggle}
        chatOpen={chat.opened}
        unread={chat.unread}
        onChat={() => chat.setOpened(!chat.opened)}
        onExit={onExit}
      />

      <div className={classes.chatNotice}>
        <ChatNotice chat={chat} />
      </div>
      <ChatDrawer chat={chat} portalTarget={stageElement} />
    </section>
  );
}

interface ControlBarProps {
  view: CallView;
  shown: boolean;
  fullScreen: boolean;
  onFullScreen: () => void;
  chatOpen: boolean;
  unread: number;
  onChat: () => void;
  onExit: () => void;
}

function ControlBar({
  view,
  shown,
  fullScreen,
  onFullScreen,
  chatOpen,
  unread,
  onChat,
  onExit,
}: ControlBarProps) {
  const { t } = useTranslation('meeting');
  const canShare =
    typeof navigator !== 'undefined' &&
    typeof navigator.mediaDevices?.getDisplayMedia === 'function';
  const hasMic = Boolean(view.local?.stream.getAudioTracks().length);
  return (
    <div
      className={classes.controls}
      role="toolbar"
      aria-label={t('controls.label')}
      data-hidden={!shown}
      data-testid="call-controls"
    >
      <Control
        label={view.micMuted ? t('controls.unmute') : t('controls.mute')}
        onClick={() => callController.toggleMic()}
        active={view.micMuted}
        disabled={!hasMic}
      >
        {view.micMuted ? <IconMicrophoneOff aria-hidden /> : <IconMicrophone aria-hidden />}
      </Control>
      <Control
        label={view.cameraOff ? t('controls.cameraOn') : t('controls.cameraOff')}
        onClick={() => void callController.toggleCamera()}
        active={view.cameraOff}
      >
        {view.cameraOff ? <IconVideoOff aria-hidden /> : <IconVideo aria-hidden />}
      </Control>
      <Indicator
        label={unread}
        size={18}
        disabled={unread === 0 || chatOpen}
        color="red"
        offset={6}
      >
        <Control label={t('controls.chat')} onClick={onChat} active={chatOpen} expanded={chatOpen}>
          <IconMessageCircle aria-hidden />
        </Control>
      </Indicator>
      {canShare ? (
        <Control
          label={view.sharing ? t('controls.stopShare') : t('controls.share')}
          onClick={() => void callController.toggleShare()}
          active={view.sharing}
        >
          {view.sharing ? <IconScreenShareOff aria-hidden /> : <IconScreenShare aria-hidden />}
        </Control>
      ) : null}
      <Control
        label={fullScreen ? t('controls.leaveFullScreen') : t('controls.fullScreen')}
        onClick={onFullScreen}
      >
        {fullScreen ? <IconMinimize aria-hidden /> : <IconMaximize aria-hidden />}
      </Control>
      <Control label={t('controls.exit')} onClick={onExit} danger>
        <IconPhoneOff aria-hidden />
      </Control>
    </div>
  );
}

function Control({
  label,
  onClick,
  active = false,
  danger = false,
  disabled = false,
  expanded,
  children,
}: {
  label: string;
  onClick: () => void;
  active?: boolean;
  danger?: boolean;
  disabled?: boolean;
  expanded?: boolean;
  children: ReactNode;
}) {
  let color = 'gray';
  if (danger) color = 'red';
  else if (active) color = 'yellow';
  return (
    <Tooltip label={label} withinPortal={false}>
      <ActionIcon
        size={48}
        radius="xl"
        variant={danger || active ? 'filled' : 'light'}
        color={color}
        aria-label={label}
        aria-expanded={expanded}
        onClick={onClick}
        disabled={disabled}
      >
        {children}
      </ActionIcon>
    </Tooltip>
  );
}

/** Shown on activity, hidden `ms` later (the bar itself stays while focused or hovered: CSS). */
function useAutoHide(ms: number): [boolean, () => void] {
  const [shown, setShown] = useState(true);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const reveal = useCallback(() => {
    setShown(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setShown(false), ms);
  }, [ms]);
  useEffect(() => {
    reveal();
    return () => clearTimeout(timer.current);
  }, [reveal]);
  return [shown, reveal];
}

function useFullScreen(target: React.RefObject<HTMLElement | null>) {
  const [active, setActive] = useState(false);
  useEffect(() => {
    const sync = () =>
      setActive(document.fullscreenElement === target.current && target.current !== null);
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, [target]);
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    else void target.current?.requestFullscreen?.().catch(() => {});
  };
  return { active, toggle };
}
