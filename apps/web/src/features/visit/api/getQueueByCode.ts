import { queryOptions, useQuery } from '@tanstack/react-query';
import { queueEndpoints } from '@upnext/contract/queues';
import { api } from '../../../lib/api-client.ts';
import { useCurrentUser } from '../../../lib/auth-session.ts';
import { visitKeys } from './keys.ts';

/** `GET /queues/by-code/{code}`: the queue behind a join code (403 join_request_required when private). */
function getQueueByCode(code: string, signal?: AbortSignal) {
  return api.call(queueEndpoints.getQueueByCode, { params: { code }, signal });
}

/** Keyed by the caller too: signing in may open a queue that was refused before. */
function queueByCodeQueryOptions(code: string, userId: string | undefined) {
  return queryOptions({
    queryKey: [...visitKeys.queueByCode(code), userId ?? 'anonymous'],
    queryFn: ({ signal }) => getQueueByCode(code, signal),
    retry: false,
    meta: { errorShownInline: true },
  });
}

export function useQueueByCode(code: string | null) {
  const user = useCurrentUser();
  return useQuery({ ...queueByCodeQueryOptions(code ?? '', user?.id), enabled: Boolean(code) });
}
