import { useState } from 'react';
import type { SubscriptionView } from '../../../contracts/subscriptions';
import { toast } from '../../components/ui/toast';
import { ApiError } from '../../lib/api-client';
import type { FieldErrors } from '../../lib/form-errors';
import { useQueryClient } from '../../lib/query';
import { seasonBoxesKey, useKeepSeasonBox } from './season-box-api';

/**
 * Runs one change to a season box: busy while it goes, the panel drawn from the answer, and what
 * the server said when it refused (its field errors and message). A refusal reads the list again:
 * a cut-off may have passed, or another tab changed it.
 */
export function useSeasonBoxAction() {
  const keep = useKeepSeasonBox();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});

  /** `shownFields`: fields the caller shows errors beside; their message is not repeated below. */
  async function run(name: string, action: () => Promise<SubscriptionView>, done: string, shownFields: readonly string[] = []): Promise<boolean> {
    setBusy(name);
    setFailure(null);
    setFieldErrors({});
    try {
      keep(await action());
      toast({ title: done });
      return true;
    } catch (error) {
      const body = error instanceof ApiError ? error.body : null;
      const fields = body?.fieldErrors ?? {};
      setFieldErrors(fields);
      setFailure(shownFields.some((field) => fields[field]) ? null : (body?.message ?? 'Your season box could not be changed. Please check your connection and try again.'));
      void queryClient.invalidateQueries({ queryKey: seasonBoxesKey });
      return false;
    } finally {
      setBusy(null);
    }
  }

  return { run, busy, failure, fieldErrors, clear: () => setFailure(null) };
}
