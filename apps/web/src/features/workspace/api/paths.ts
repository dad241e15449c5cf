/**
 * Session paths of the queue API (spec §7, under `/api`). The workspace paths of companies and
 * queues come from the contract (`apiPaths`); these are the sessions module's.
 */
export const sessionPaths = {
  mine: '/queues/sessions',
  query: '/queues/sessions/query',
  schedule: '/queues/sessions/schedule',
  edit: '/queues/sessions/edit',
  delete: '/queues/sessions/delete',
  status: '/queues/sessions/status',
} as const;
