import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { EndpointQuery } from '@upnext/contract/endpoint';
import { reportEndpoints } from '@upnext/contract/reports';
import { api } from '../../../lib/api-client.ts';

export type ReportQuery = EndpointQuery<typeof reportEndpoints.getReport>;

/**
 * `GET /company/{companyId}/reports`. The previous report stays on screen while another
 * period or scope loads, so the filters (whose queue choices come with it) never vanish.
 */
export function useReport(companyId: string, query: ReportQuery, enabled: boolean) {
  return useQuery({
    queryKey: ['reports', companyId, query],
    queryFn: ({ signal }) =>
      api.call(reportEndpoints.getReport, { params: { companyId }, query, signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}
