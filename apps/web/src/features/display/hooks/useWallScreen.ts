import { useCallback, useEffect, useState } from 'react';

/** The Fullscreen API for a wall screen: the board fills the display until Escape or "Leave". */
export function useFullscreen() {
  const [on, setOn] = useState(() => Boolean(document.fullscreenElement));
  useEffect(() => {
    const update = () => setOn(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', update);
    return () => document.removeEventListener('fullscreenchange', update);
  }, []);
  const toggle = useCallback(() => {
    if (document.fullscreenElement) void document.exitFullscreen();
    // Refused (e.g. inside a frame that may not go full screen): the board stays as it is.
    else void document.documentElement.requestFullscreen().catch(() => {});
  }, []);
  return {
    supported: typeof document.documentElement.requestFullscreen === 'function',
    on,
    toggle,
  };
}

/**
 * Keeps a wall screen awake while the board shows (Screen Wake Lock API). The browser drops
 * the lock whenever the page is hidden, so it is taken again each time the page is visible.
 * Where it is refused (power saving, no support) the screen may dim as usual.
 */
export function useWakeLock() {
  useEffect(() => {
    if (!('wakeLock' in navigator)) return;
    let lock: WakeLockSentinel | null = null;
    let mounted = true;
    const acquire = async () => {
      if (document.visibilityState !== 'visible' || (lock && !lock.released)) return;
      try {
        const taken = await navigator.wakeLock.request('screen');
        if (mounted) lock = taken;
        else void taken.release();
      } catch {
        // Not allowed now: the next visibility change tries again.
      }
    };
    void acquire();
    document.addEventListener('visibilitychange', acquire);
    return () => {
      mounted = false;
      document.removeEventListener('visibilitychange', acquire);
      void lock?.release();
    };
  }, []);
}
