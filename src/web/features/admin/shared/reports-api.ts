import { keepPreviousData, useQuery } from '../../../lib/query';
import type { AuditPage, DashboardView, ReportTable, SalesReport } from '../../../../contracts/reports';
import { apiRequest } from '../../../lib/api-client';

/** The range and grouping as the address and the API carry them; the server checks them and fills in what is missing. */
export interface ReportFilters {
  from?: string;
  to?: string;
  groupBy?: string;
}

function reportQuery(filters: ReportFilters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Where a report table's CSV downloads from (the browser follows the link with its session cookie). */
export const reportCsvUrl = (table: ReportTable, filters: ReportFilters) => `/api/admin/reports/${table}.csv${reportQuery(filters)}`;

export function useSalesReport(filters: ReportFilters) {
  return useQuery({
    queryKey: ['admin', 'reports', filters],
    queryFn: ({ signal }) => apiRequest<SalesReport>(`/api/admin/reports${reportQuery(filters)}`, { signal }),
    placeholderData: keepPreviousData,
    retry: false,
  });
}

export function useDashboard() {
  return useQuery({ queryKey: ['admin', 'dashboard'], queryFn: ({ signal }) => apiRequest<DashboardView>('/api/admin/dashboard', { signal }) });
}

export function useAuditLog(page: number, pageSize: number) {
  return useQuery({
    queryKey: ['admin', 'audit', page, pageSize],
    queryFn: ({ signal }) => apiRequest<AuditPage>(`/api/admin/audit?page=${page}&pageSize=${pageSize}`, { signal }),
    placeholderData: keepPreviousData,
  });
}
