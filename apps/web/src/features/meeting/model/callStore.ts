import { callDestination } from '@upnext/contract/realtime-topics';
import { useSyncExternalStore } from 'react';
import { getCurrentUser } from '../../../lib/auth-session.ts';
import { realtime } from '../../../lib/stomp-client.ts';
import { endMeeting, fetchIceServers } from '../api/meeting.ts';
import { CallController, type CallView } from './callController.ts';

/**
 * The browser's one call: the app shell (incoming call) and the meeting screen share it, so
 * moving between pages never drops a call.
 */
export const callController = new CallController({
  send: (message) => realtime.publish(callDestination, message),
  email: () => getCurrentUser()?.email ?? '',
  getIceServers: fetchIceServers,
  endMeeting,
  getUserMedia: (constraints) => navigator.mediaDevices.getUserMedia(constraints),
  getDisplayMedia: () => navigator.mediaDevices.getDisplayMedia({ video: true, audio: false }),
  createPeerConnection: (config) => new RTCPeerConnection(config),
  createStream: (tracks) => new MediaStream(tracks),
});

export function useCall(): CallView {
  return useSyncExternalStore(
    callController.subscribe,
    callController.getView,
    callController.getView,
  );
}
