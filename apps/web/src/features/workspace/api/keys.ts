import type { SessionQuery } from '@upnext/contract/sessions';

/** Query keys of the workspace feature, so mutations invalidate exactly what they change. */
export const workspaceKeys = {
  all: ['workspace'] as const,
  company: (companyId: string) => [...workspaceKeys.all, 'company', companyId] as const,
  companyUsers: (companyId: string) =>
    [...workspaceKeys.all, 'company', companyId, 'users'] as const,
  queues: (companyId: string) => [...workspaceKeys.all, 'queues', companyId] as const,
  queue: (queueId: string) => [...workspaceKeys.all, 'queue', queueId] as const,
  subQueues: (queueId: string) => [...workspaceKeys.queue(queueId), 'sub-queues'] as const,
  serviceTypes: (queueId: string) => [...workspaceKeys.queue(queueId), 'service-types'] as const,
  serviceAreas: (queueId: string) => [...workspaceKeys.queue(queueId), 'service-areas'] as const,
  sessions: () => [...workspaceKeys.all, 'sessions'] as const,
  sessionQuery: (query: Partial<SessionQuery>) =>
    [...workspaceKeys.sessions(), 'query', query] as const,
  mySessions: (date: string | undefined) =>
    [...workspaceKeys.sessions(), 'mine', date ?? 'today'] as const,
};
