/**
 * The incoming-call ring, made with WebAudio (nothing downloaded): two tones together
 * (440 + 480 Hz) for 1.2 s, twice, every 4 s, until stopped. Returns the stop function.
 */
export function startRingtone(): () => void {
  const Context =
    window.AudioContext ??
    (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Context) return () => {};
  let context: AudioContext;
  try {
    context = new Context();
  } catch {
    return () => {};
  }
  const ring = () => {
    if (context.state === 'suspended') void context.resume().catch(() => {});
    const start = context.currentTime + 0.05;
    for (const offset of [0, 1.6]) {
      const gain = context.createGain();
      gain.connect(context.destination);
      const at = start + offset;
      gain.gain.setValueAtTime(0, at);
      gain.gain.linearRampToValueAtTime(0.12, at + 0.05);
      gain.gain.setValueAtTime(0.12, at + 1.15);
      gain.gain.linearRampToValueAtTime(0, at + 1.2);
      for (const frequency of [440, 480]) {
        const oscillator = context.createOscillator();
        oscillator.frequency.value = frequency;
        oscillator.connect(gain);
        oscillator.start(at);
        oscillator.stop(at + 1.25);
      }
    }
  };
  ring();
  const timer = setInterval(ring, 4000);
  return () => {
    clearInterval(timer);
    void context.close().catch(() => {});
  };
}
