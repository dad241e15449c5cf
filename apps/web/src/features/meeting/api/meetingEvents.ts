import type { Meeting } from '@upnext/contract/meetings';
import { meetingStateEventSchema } from '@upnext/contract/meetings';
import { registerRealtime, updateLiveQuery } from '../../../lib/realtime-cache.ts';
import { meetingKeys } from './meeting.ts';

// A meeting's state changes (answered, declined, missed, ended) reach both parties on their
// meeting topic; the cached meeting follows, so the meeting screen shows the server's word.
registerRealtime('/topic/meeting/:subscribeId', {
  apply(body, queryClient) {
    const parsed = meetingStateEventSchema.safeParse(body);
    if (!parsed.success) return;
    const event = parsed.data;
    updateLiveQuery<Meeting>(queryClient, meetingKeys.detail(event.meetingId), (meeting) =>
      meeting ? { ...meeting, state: event.state } : meeting,
    );
  },
  resync(queryClient) {
    void queryClient.invalidateQueries({ queryKey: meetingKeys.all });
  },
});
