/**
 * The queue API paths of the provider workspace (spec §7, each under `/api`). `:name`
 * placeholders are filled with `buildPath` from `routes.ts` (URL-encoded).
 */
export const apiPaths = {
  companies: '/company',
  company: '/company/:id',
  companyUsers: '/company/:id/users',
  companyUser: '/company/:id/users/:userId',
  userData: '/user/user-data',
  userProfile: '/user/profile',
  queues: '/company/queues',
  queue: '/company/queues/:queueId',
  queueByCode: '/queues/by-code/:code',
  subQueues: '/queues/:queueId/sub-queues',
  subQueue: '/queues/:queueId/sub-queues/:id',
  serviceTypes: '/queues/:queueId/service-types',
  serviceType: '/queues/:queueId/service-types/:id',
  serviceAreas: '/queues/:queueId/service-areas',
  serviceArea: '/queues/:queueId/service-areas/:id',
  clientPromotions: '/queues/client-promotions',
  clientPromotion: '/queues/client-promotions/:id',
  joinRequests: '/queues/requests',
  joinRequest: '/queues/requests/:id',
} as const;

/**
 * Methods per path:
 * - companies: POST create (the caller becomes owner). company: GET, PATCH (owner/admin).
 * - companyUsers: GET list (members), POST invite {email, role} (owner/admin).
 * - companyUser: PATCH {role?, status?}, DELETE (owner/admin; admins cannot touch owners;
 *   the last active owner cannot be demoted, disabled or removed: 409 last_owner).
 * - userData: GET ?userId=<email>. userProfile: PATCH {displayName?, avatarUrl?, timezone?}.
 * - queues: GET ?companyId=&status=, POST {companyId, ...}. queue: GET, PATCH, DELETE (archive).
 * - queueByCode: GET (visitors; public and unlisted active queues, private ones when approved).
 * - subQueues/serviceTypes/serviceAreas: GET list, POST create; item: GET, PATCH, DELETE.
 * - clientPromotions: GET ?companyId=&queueId=&scope=, POST; item: PATCH, DELETE.
 * - joinRequests: GET ?queueId=&status=, POST {queueId, message?}; item: PATCH {status}
 *   (owner/admin), DELETE (the requester withdraws a pending request).
 */
export type ApiPathName = keyof typeof apiPaths;
