import { useEffect, useState } from 'react';

/** The microphone's level (0..1) of `stream`, for the pre-call check's meter; 0 without one. */
export function useMicLevel(stream: MediaStream | null): number {
  const [level, setLevel] = useState(0);
  const track = stream?.getAudioTracks()[0] ?? null;
  useEffect(() => {
    if (!track || typeof window.AudioContext !== 'function') {
      setLevel(0);
      return;
    }
    const context = new AudioContext();
    const source = context.createMediaStreamSource(new MediaStream([track]));
    const analyser = context.createAnalyser();
    analyser.fftSize = 512;
    source.connect(analyser);
    const samples = new Float32Array(analyser.fftSize);
    // Ten readings a second are enough for a meter and cheap for React.
    const timer = setInterval(() => {
      analyser.getFloatTimeDomainData(samples);
      let sum = 0;
      for (const sample of samples) sum += sample * sample;
      const rms = Math.sqrt(sum / samples.length);
      setLevel(track.enabled ? Math.min(1, rms * 4) : 0);
    }, 100);
    return () => {
      clearInterval(timer);
      source.disconnect();
      void context.close().catch(() => {});
    };
  }, [track]);
  return level;
}
