import { useCallback, useEffect, useRef, useState } from 'react';
import { playChime } from '../../../lib/chime.ts';

export type TurnAlert = 'approaching' | 'called';

const notificationsSupported = () => typeof window !== 'undefined' && 'Notification' in window;

/**
 * Tells a visitor whose tab is in the background that their turn approaches or has come: a
 * system notification (once they allowed it), the tab's title until they look again, and a
 * chime. Browsers play sound and ask for permission only after a gesture, so `enable` is a
 * button's handler.
 */
export function useTurnAlert(alert: TurnAlert | null, message: (alert: TurnAlert) => string) {
  const [permission, setPermission] = useState<NotificationPermission | 'unsupported'>(() =>
    notificationsSupported() ? Notification.permission : 'unsupported',
  );
  const [soundOn, setSoundOn] = useState(false);
  const audio = useRef<AudioContext | null>(null);
  const told = useRef<TurnAlert | null>(null);
  const pageTitle = useRef<string | null>(null);

  const enable = useCallback(async () => {
    audio.current ??= new AudioContext();
    void audio.current.resume();
    setSoundOn(true);
    if (notificationsSupported()) setPermission(await Notification.requestPermission());
  }, []);

  useEffect(() => {
    const restore = () => {
      if (document.hidden || pageTitle.current === null) return;
      document.title = pageTitle.current;
      pageTitle.current = null;
    };
    document.addEventListener('visibilitychange', restore);
    return () => document.removeEventListener('visibilitychange', restore);
  }, []);

  useEffect(() => {
    if (alert === told.current) return;
    told.current = alert;
    if (!alert) return;
    const text = message(alert);
    if (audio.current) playChime(audio.current);
    if (!document.hidden) return;
    if (permission === 'granted') new Notification(text, { tag: 'upnext-turn' });
    pageTitle.current ??= document.title;
    document.title = `● ${text}`;
  }, [alert, message, permission]);

  return { permission, soundOn, enable };
}
