import { useMutation } from '@tanstack/react-query';
import type { CreateJoinRequestBody } from '@upnext/contract/requests';
import { requestEndpoints } from '@upnext/contract/requests';
import { api } from '../../../lib/api-client.ts';

/** `POST /queues/requests`: a signed-in visitor asks to join a private queue. */
function createJoinRequest(body: CreateJoinRequestBody) {
  return api.call(requestEndpoints.createJoinRequest, { body });
}

export function useCreateJoinRequest() {
  return useMutation({ mutationFn: createJoinRequest, meta: { errorShownInline: true } });
}
