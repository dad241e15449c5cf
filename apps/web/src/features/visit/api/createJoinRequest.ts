import { useMutation } from '@tanstack/react-query';
import type { CreateJoinRequestBody, JoinRequest } from '@upnext/contract/requests';
import { api } from '../../../lib/api-client.ts';
import { visitPaths } from './keys.ts';

/** `POST /queues/requests`: a signed-in visitor asks to join a private queue. */
export function createJoinRequest(body: CreateJoinRequestBody): Promise<JoinRequest> {
  return api.post<JoinRequest>(visitPaths.joinRequests, body);
}

export function useCreateJoinRequest() {
  return useMutation({ mutationFn: createJoinRequest, meta: { errorShownInline: true } });
}
