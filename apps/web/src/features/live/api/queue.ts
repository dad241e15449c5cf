import { queryOptions, useQuery } from '@tanstack/react-query';
import type { IntakeQuestion } from '@upnext/contract/intake';
import { type Queue, queueEndpoints } from '@upnext/contract/queues';
import { api } from '../../../lib/api-client.ts';
import { liveKeys } from './keys.ts';

/** `GET /company/queues/{queueId}`: the console and the kiosk read a few of its settings. */
function getQueue(queueId: string, signal?: AbortSignal) {
  return api.call(queueEndpoints.getQueue, { params: { queueId }, signal });
}

function useQueueSetting<T>(queueId: string | undefined, select: (queue: Queue) => T) {
  return useQuery(
    queryOptions({
      queryKey: liveKeys.queue(queueId ?? ''),
      queryFn: ({ signal }) => getQueue(queueId ?? '', signal),
      select,
      // The screen shows the failure itself or does without the setting: no notice over it.
      meta: { errorShownInline: true },
      enabled: Boolean(queueId),
    }),
  );
}

const offersVideo = (queue: Queue) => queue.online;
const intakeQuestions = (queue: Queue) => queue.intakeQuestions;

/**
 * Whether the queue offers video consultations (its `online` flag, the one `startMeeting`
 * checks): true only once known, so the action never shows for a queue without video.
 */
export function useQueueOffersVideo(queueId: string | undefined): boolean {
  return useQueueSetting(queueId, offersVideo).data === true;
}

/** The questions a walk-in answers at the desk or the kiosk, as visitors do online. */
export function useQueueIntakeQuestions(queueId: string | undefined) {
  return useQueueSetting<readonly IntakeQuestion[]>(queueId, intakeQuestions);
}
