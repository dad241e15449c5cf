import { useMutation } from '@tanstack/react-query';
import { endpoints } from '@upnext/contract/endpoints';
import type { CreateJoinRequestBody } from '@upnext/contract/requests';
import { api } from '../../../lib/api-client.ts';

/** `POST /queues/requests`: a signed-in visitor asks to join a private queue. */
function createJoinRequest(body: CreateJoinRequestBody) {
  return api.call(endpoints.createJoinRequest, { body });
}

export function useCreateJoinRequest() {
  return useMutation({ mutationFn: createJoinRequest, meta: { errorShownInline: true } });
}
