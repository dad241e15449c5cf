import { meetingEndpoints as endpoints } from '@upnext/contract/meetings';
import type { FastifyPluginAsync } from 'fastify';
import { registerEndpoint } from '../../http/endpoint.ts';
import * as service from './meetings.service.ts';

/** Video meetings (PRODUCT.md "Meetings"); the signalling goes over STOMP (meetings.relay.ts). */
export const meetingRoutes: FastifyPluginAsync<service.MeetingsDeps> = async (app, deps) => {
  registerEndpoint(app, endpoints.startMeeting, (request) =>
    service.startMeeting(deps, request.caller, request.body),
  );
  registerEndpoint(app, endpoints.listMeetings, (request) =>
    service.listMeetings(deps, request.caller, request.query.state),
  );
  registerEndpoint(app, endpoints.getMeeting, (request) =>
    service.getMeeting(deps, request.caller, request.params.meetingId),
  );
  registerEndpoint(app, endpoints.endMeeting, (request) =>
    service.endMeeting(deps, request.caller, request.params.meetingId),
  );
  registerEndpoint(app, endpoints.getIceServers, (request) =>
    service.getIceServers(deps, request.caller, request.params.meetingId),
  );
};
