/**
 * Getting the camera and microphone (spec §4: echo cancellation, noise suppression and
 * automatic gain on). When one of them is refused or missing the call goes ahead with what
 * works, and says what is missing.
 */
const microphoneConstraints: MediaTrackConstraints = {
  echoCancellation: true,
  noiseSuppression: true,
  autoGainControl: true,
};
/**
 * VGA, the size a new connection can send: it starts at a low bandwidth estimate, and for a
 * 1280×720 camera the encoder drops the first frames and has the camera scaled down before it
 * sends any (measured: the first remote frame 0.5-1.5 s later than with 640×480; issue 12).
 */
const cameraConstraints: MediaTrackConstraints = {
  width: { ideal: 640 },
  height: { ideal: 480 },
  frameRate: { ideal: 30 },
};

/** Why a device is not in the call. */
export type DeviceProblem = 'denied' | 'missing' | 'busy' | 'failed';

export interface LocalMedia {
  stream: MediaStream;
  camera: DeviceProblem | null;
  microphone: DeviceProblem | null;
}

export type GetUserMedia = (constraints: MediaStreamConstraints) => Promise<MediaStream>;

export function deviceProblem(error: unknown): DeviceProblem {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'missing';
  if (name === 'NotReadableError' || name === 'AbortError') return 'busy';
  return 'failed';
}

/**
 * Both devices in one request (one permission prompt); when that fails, each on its own, so a
 * refused camera still leaves the microphone (and the other way round).
 */
export async function acquireLocalMedia(
  getUserMedia: GetUserMedia,
  createStream: (tracks: MediaStreamTrack[]) => MediaStream,
): Promise<LocalMedia> {
  try {
    const stream = await getUserMedia({ audio: microphoneConstraints, video: cameraConstraints });
    return { stream, camera: null, microphone: null };
  } catch {
    const tracks: MediaStreamTrack[] = [];
    let microphone: DeviceProblem | null = null;
    let camera: DeviceProblem | null = null;
    try {
      tracks.push(...(await getUserMedia({ audio: microphoneConstraints })).getAudioTracks());
    } catch (error) {
      microphone = deviceProblem(error);
    }
    try {
      tracks.push(...(await getUserMedia({ video: cameraConstraints })).getVideoTracks());
    } catch (error) {
      camera = deviceProblem(error);
    }
    return { stream: createStream(tracks), camera, microphone };
  }
}

/** A camera again after it was turned off (its track was stopped to put the light out). */
export async function acquireCamera(getUserMedia: GetUserMedia): Promise<MediaStreamTrack> {
  const stream = await getUserMedia({ video: cameraConstraints });
  const track = stream.getVideoTracks()[0];
  if (!track) throw new DOMException('No camera track', 'NotFoundError');
  return track;
}
