import { ClipboardList } from 'lucide-react';
import { Link } from 'react-router';
import type { SetupChecklist } from '../../../../contracts/setup';
import { apiRequest } from '../../../lib/api-client';
import { useQuery } from '../../../lib/query';

export const setupKey = ['admin', 'setup'] as const;

/** What a new shop still lacks (GET /api/admin/setup), each with a link to where it is set; nothing once all is set. */
export function DashboardSetup() {
  const setup = useQuery({ queryKey: setupKey, queryFn: ({ signal }) => apiRequest<SetupChecklist>('/api/admin/setup', { signal }) });
  const missing = setup.data?.missing ?? [];
  if (!missing.length) return null;
  return (
    <section aria-labelledby="setup-title" className="grid gap-3 rounded-2xl border border-mango-600/40 bg-mango-50 p-5 sm:p-6">
      <h2 id="setup-title" className="flex items-center gap-2 text-2xl font-semibold">
        <ClipboardList className="size-6 text-mango-700" aria-hidden="true" /> Still to set up
      </h2>
      <ul className="grid gap-3">
        {missing.map((item) => (
          <li key={item.key} className="grid gap-0.5 text-sm">
            {item.link ? (
              <Link to={item.link} className="font-semibold text-mango-700 underline-offset-2 hover:underline">
                {item.title}
              </Link>
            ) : (
              <span className="font-semibold">{item.title}</span>
            )}
            <span className="text-ink-500">{item.detail}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
