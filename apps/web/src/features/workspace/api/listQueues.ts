import { queryOptions, useQuery } from '@tanstack/react-query';
import { queueEndpoints } from '@upnext/contract/queues';
import { api } from '../../../lib/api-client.ts';
import { workspaceKeys } from './keys.ts';

/** `GET /company/queues?companyId=`: every queue of the company, active and archived. */
function listQueues(companyId: string, signal?: AbortSignal) {
  return api.call(queueEndpoints.listQueues, { query: { companyId }, signal });
}

function queuesQueryOptions(companyId: string) {
  return queryOptions({
    queryKey: workspaceKeys.queues(companyId),
    queryFn: ({ signal }) => listQueues(companyId, signal),
  });
}

export function useQueues(companyId: string) {
  return useQuery(queuesQueryOptions(companyId));
}
