import { queryOptions, useQuery } from '@tanstack/react-query';
import { queueEndpoints } from '@upnext/contract/queues';
import { api } from '../../../lib/api-client.ts';
import { liveKeys } from './keys.ts';

/** `GET /company/queues/{queueId}`: the console needs only whether the queue offers video. */
function getQueue(queueId: string, signal?: AbortSignal) {
  return api.call(queueEndpoints.getQueue, { params: { queueId }, signal });
}

function queueQueryOptions(queueId: string) {
  return queryOptions({
    queryKey: liveKeys.queue(queueId),
    queryFn: ({ signal }) => getQueue(queueId, signal),
    select: (queue) => queue.online,
    // Without it the console only lacks the Video call action: no notice over the console.
    meta: { errorShownInline: true },
  });
}

/**
 * Whether the queue offers video consultations (its `online` flag, the one `startMeeting`
 * checks): true only once known, so the action never shows for a queue without video.
 */
export function useQueueOffersVideo(queueId: string | undefined): boolean {
  const query = useQuery({ ...queueQueryOptions(queueId ?? ''), enabled: Boolean(queueId) });
  return query.data === true;
}
