import { useCallback, useEffect, useRef, useState } from 'react';
import { playChime } from '../../../lib/chime.ts';
import { currentLanguage } from '../../../lib/language.ts';

/** "A-017" is read out as "A, 0, 1, 7" rather than "A minus seventeen". */
export function spokenNumber(displayNumber: string): string {
  return displayNumber.replace(/-/g, ' ').split('').join(' ').replace(/\s+/g, ' ').trim();
}

/**
 * Announces each newly called token: a chime, then the call-out by speech synthesis.
 * Browsers only play sound after a user gesture, so the board asks once ("Turn on sound").
 */
export function useCallAnnouncer(nowServing: string | null, callOut: (number: string) => string) {
  const [soundOn, setSoundOn] = useState(false);
  const audio = useRef<AudioContext | null>(null);
  const announced = useRef<string | null | undefined>(undefined);

  const enableSound = useCallback(() => {
    audio.current ??= new AudioContext();
    void audio.current.resume();
    setSoundOn(true);
  }, []);

  useEffect(() => {
    // The first value is what was already showing: nothing new to announce.
    if (announced.current === undefined) {
      announced.current = nowServing;
      return;
    }
    if (!nowServing || nowServing === announced.current) return;
    announced.current = nowServing;
    if (!soundOn || !audio.current) return;
    playChime(audio.current);
    if ('speechSynthesis' in window) {
      const utterance = new SpeechSynthesisUtterance(callOut(spokenNumber(nowServing)));
      // Spoken in the board's language (the call-out text is in it).
      utterance.lang = currentLanguage();
      utterance.rate = 0.9;
      // After the chime has rung out.
      window.setTimeout(() => window.speechSynthesis.speak(utterance), 900);
    }
  }, [nowServing, soundOn, callOut]);

  useEffect(() => () => void audio.current?.close(), []);

  return { soundOn, enableSound };
}
