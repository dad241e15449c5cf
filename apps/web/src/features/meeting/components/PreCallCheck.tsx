import { Avatar, Box, Group, Stack, Text } from '@mantine/core';
import { IconMicrophone } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Notice } from '../../../components/tones.tsx';
import { useCurrentUser } from '../../../lib/auth-session.ts';
import { useVideoStream } from '../hooks/useMediaStream.ts';
import { useMicLevel } from '../hooks/useMicLevel.ts';
import { callController, useCall } from '../model/callStore.ts';
import type { LocalMedia } from '../model/media.ts';
import { initialsOf } from './initials.ts';
import classes from './Meeting.module.css';

/**
 * The pre-call check (issue 12): the camera preview and a live microphone level, with what is
 * missing said plainly, before answering or while ringing. The media it starts is the call's.
 */
export function PreCallCheck() {
  const { t } = useTranslation('meeting');
  const view = useCall();
  const user = useCurrentUser();
  useEffect(() => {
    void callController.preview();
  }, []);
  const stream = view.local?.stream ?? null;
  const showVideo = Boolean(stream?.getVideoTracks().length) && !view.cameraOff;
  const videoRef = useVideoStream(showVideo ? stream : null);
  const level = useMicLevel(stream);
  const name = user?.displayName ?? user?.email ?? user?.phone ?? '';

  return (
    <Stack gap="sm" aria-label={t('check.title')} role="group">
      <Box className={classes.previewFrame}>
        {showVideo ? (
          <video
            ref={videoRef}
            className={classes.mirrored}
            muted
            autoPlay
            playsInline
            aria-label={t('check.preview')}
            data-testid="precall-preview"
          />
        ) : (
          <Stack align="center" justify="center" h="100%" gap="xs">
            <Avatar src={user?.avatarUrl ?? null} size={72} radius="xl" color="brand" alt="">
              {initialsOf(name)}
            </Avatar>
            <Text size="sm" c="gray.3">
              {view.acquiring ? t('check.starting') : t('screen.cameraOffLabel')}
            </Text>
          </Stack>
        )}
      </Box>
      <Group gap="xs" wrap="nowrap">
        <IconMicrophone size={18} aria-hidden />
        <meter
          className={classes.meter}
          min={0}
          max={100}
          value={Math.round(level * 100)}
          aria-label={t('check.micLevel')}
          data-testid="mic-level"
        />
      </Group>
      <DeviceNotices local={view.local} />
    </Stack>
  );
}

/** What is missing from the call, and why (a refused device, none found, busy elsewhere). */
export function DeviceNotices({ local }: { local: LocalMedia | null }) {
  const { t } = useTranslation('meeting');
  if (!local) return null;
  if (local.camera && local.microphone) {
    return (
      <Notice tone="yellow" role="alert">
        {t('check.noDevices')}
      </Notice>
    );
  }
  return (
    <>
      {local.camera ? (
        <Notice tone="yellow" role="alert">
          {t('check.noCamera', { reason: t(`check.reason.${local.camera}`) })}
        </Notice>
      ) : null}
      {local.microphone ? (
        <Notice tone="yellow" role="alert">
          {t('check.noMicrophone', { reason: t(`check.reason.${local.microphone}`) })}
        </Notice>
      ) : null}
    </>
  );
}
