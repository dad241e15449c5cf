import { billingEndpoints } from './billing.ts';
import { companyEndpoints } from './companies.ts';
import { meetingEndpoints } from './meetings.ts';
import { paymentEndpoints } from './payments.ts';
import { promotionEndpoints } from './promotions.ts';
import { queueEndpoints } from './queues.ts';
import { reportEndpoints } from './reports.ts';
import { requestEndpoints } from './requests.ts';
import { sessionEndpoints } from './sessions.ts';
import { systemEndpoints } from './system.ts';
import { tokenEndpoints } from './tokens.ts';
import { userEndpoints } from './users.ts';
import { visitEndpoints } from './visits.ts';

/**
 * Every call of the queue API under `/api` (`/auth/v1` is GoTrue's contract, not ours). The
 * server registers its routes and OpenAPI from this table, the web calls through it.
 */
export const endpoints = {
  ...systemEndpoints,
  ...companyEndpoints,
  ...billingEndpoints,
  ...userEndpoints,
  ...meetingEndpoints,
  ...paymentEndpoints,
  ...promotionEndpoints,
  ...queueEndpoints,
  ...reportEndpoints,
  ...requestEndpoints,
  ...sessionEndpoints,
  ...tokenEndpoints,
  ...visitEndpoints,
};

export type EndpointName = keyof typeof endpoints;
