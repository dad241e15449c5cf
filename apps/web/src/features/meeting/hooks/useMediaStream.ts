import { useCallback } from 'react';

/** A ref callback that shows `stream` in a <video> (srcObject is not a React prop). */
export function useVideoStream(stream: MediaStream | null) {
  return useCallback(
    (element: HTMLVideoElement | null) => {
      if (element && element.srcObject !== stream) element.srcObject = stream;
    },
    [stream],
  );
}
