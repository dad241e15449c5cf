import { useMutation } from '@tanstack/react-query';
import type { StartMeetingInput } from '@upnext/contract/meetings';
import { meetingEndpoints } from '@upnext/contract/meetings';
import { api } from '../../../lib/api-client.ts';

/** `POST /meetings`: ring the visitor of the token this staff member is calling or serving. */
function startMeeting(input: StartMeetingInput) {
  return api.call(meetingEndpoints.startMeeting, { body: input });
}

export function useStartMeeting() {
  return useMutation({
    mutationFn: startMeeting,
    // The console shows the refusal beside the action.
    meta: { errorShownInline: true },
  });
}
