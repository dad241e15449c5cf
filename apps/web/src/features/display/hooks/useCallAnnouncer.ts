import { useCallback, useEffect, useRef, useState } from 'react';

/** Two soft tones, like a waiting-room chime, through Web Audio (no sound file to load). */
function playChime(context: AudioContext) {
  const start = context.currentTime;
  for (const [offset, frequency] of [
    [0, 880],
    [0.35, 660],
  ] as const) {
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = 'sine';
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, start + offset);
    gain.gain.exponentialRampToValueAtTime(0.3, start + offset + 0.03);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.6);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(start + offset);
    oscillator.stop(start + offset + 0.65);
  }
}

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
      utterance.rate = 0.9;
      // After the chime has rung out.
      window.setTimeout(() => window.speechSynthesis.speak(utterance), 900);
    }
  }, [nowServing, soundOn, callOut]);

  useEffect(() => () => void audio.current?.close(), []);

  return { soundOn, enableSound };
}
