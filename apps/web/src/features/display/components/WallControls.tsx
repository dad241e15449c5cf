import { Button, Group } from '@mantine/core';
import { IconMaximize, IconMinimize, IconVolume } from '@tabler/icons-react';
import { useFullscreen, useWakeLock } from '../hooks/useWallScreen.ts';
import { useTranslation } from '../texts.ts';

interface WallControlsProps {
  soundOn: boolean;
  onEnableSound: () => void;
}

/** A wall screen's buttons (sound, full screen); while shown, the screen is kept awake. */
export function WallControls({ soundOn, onEnableSound }: WallControlsProps) {
  const { t } = useTranslation('display');
  const fullscreen = useFullscreen();
  useWakeLock();
  return (
    <Group gap="xs" wrap="nowrap">
      {!soundOn && (
        <Button
          variant="white"
          color="dark"
          size="compact-md"
          leftSection={<IconVolume size={18} aria-hidden />}
          onClick={onEnableSound}
        >
          {t('enableSound')}
        </Button>
      )}
      {fullscreen.supported && (
        <Button
          variant="white"
          color="dark"
          size="compact-md"
          leftSection={
            fullscreen.on ? (
              <IconMinimize size={18} aria-hidden />
            ) : (
              <IconMaximize size={18} aria-hidden />
            )
          }
          onClick={fullscreen.toggle}
        >
          {fullscreen.on ? t('fullscreen.exit') : t('fullscreen.enter')}
        </Button>
      )}
    </Group>
  );
}
