/**
 * The short tone of a new chat message (spec §2), synthesised with WebAudio: nothing is
 * downloaded. One AudioContext is reused; where there is none (or it refuses), no sound.
 */
let context: AudioContext | null = null;

export function playChatTone(): void {
  const Context = globalThis.AudioContext;
  if (!Context) return;
  try {
    context ??= new Context();
    if (context.state === 'suspended') void context.resume().catch(() => undefined);
    const start = context.currentTime;
    // Two soft notes, 120 ms each: noticeable in a call without startling anyone.
    for (const [index, frequency] of [880, 1320].entries()) {
      const at = start + index * 0.13;
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      oscillator.type = 'sine';
      oscillator.frequency.setValueAtTime(frequency, at);
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.15, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.12);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(at);
      oscillator.stop(at + 0.13);
    }
  } catch {
    // Audio is a nicety: the notice is shown either way.
  }
}
