import { type FormEvent, useState } from 'react';
import { formatDay } from '../../../../contracts/dates';
import { startRunSchema, type SubscriptionRunResult } from '../../../../contracts/subscriptions';
import { Button } from '../../../components/ui/button';
import { Panel } from '../../../components/ui/panel';
import { TextField } from '../../../components/ui/text-field';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { fieldErrorsOf } from '../../../lib/form-errors';
import { useQuery, useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/query/mutation';
import { runResultText } from './season-box-words';
import { fetchStopState, postRun, stopStateKey } from './subscriptions-api';

/**
 * One delivery date's run, started before its cut-off (when the fruit is in early, say). Each box
 * is made once: starting the same date again makes nothing new and says how many were done.
 */
export function StartRunForm() {
  const queryClient = useQueryClient();
  const [deliveryDate, setDeliveryDate] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  // The same answer the stop-all panel shows: while stopped a run is refused, and the form says so first.
  const stopped = useQuery({ queryKey: stopStateKey, queryFn: ({ signal }) => fetchStopState(signal), retry: false }).data?.stopped === true;
  const run = useMutation({
    mutationFn: (date: string) => postRun(date),
    onSuccess: () => {
      // Orders were made: the lists, stock and the dashboard's counts all move.
      void queryClient.invalidateQueries({ queryKey: ['admin'] });
    },
    onError: (error) => {
      setFieldError(error instanceof ApiError ? error.body?.fieldErrors?.deliveryDate : undefined);
      // Stopped meanwhile (by someone else, say): the stop-all panel catches up.
      if (error instanceof ApiError && error.status === 409) void queryClient.invalidateQueries({ queryKey: stopStateKey });
    },
  });
  // A refusal for being stopped no longer holds once season boxes are back on.
  const refusedWhileStopped = run.error instanceof ApiError && run.error.status === 409 && !stopped;
  const error = run.isError && !fieldError && !refusedWhileStopped ? errorMessage(run.error, 'The run could not be started. Please try again.') : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = startRunSchema.safeParse({ deliveryDate });
    if (!parsed.success) return setFieldError(fieldErrorsOf(parsed.error).deliveryDate);
    setFieldError(undefined);
    run.mutate(parsed.data.deliveryDate);
  };
  return (
    <Panel title="Start a run early" className="gap-3">
      <p className="text-sm text-ink-500">Makes the orders of every season box for that delivery date now, instead of at its cut-off. Shoppers can no longer skip or change those boxes.</p>
      <form onSubmit={submit} noValidate className="flex flex-wrap items-end gap-3">
        <TextField
          label="Delivery date"
          type="date"
          value={deliveryDate}
          error={fieldError}
          onChange={(event) => {
            setFieldError(undefined);
            setDeliveryDate(event.target.value);
          }}
        />
        <Button type="submit" disabled={run.isPending}>
          {run.isPending ? 'Running…' : 'Start run'}
        </Button>
      </form>
      {stopped && !error && <p className="text-sm text-ink-500">Season boxes are stopped: turn them back on before starting a run.</p>}
      <RunOutcome result={run.data} error={error} />
    </Panel>
  );
}

function RunOutcome({ result, error }: { result: SubscriptionRunResult | undefined; error: string | undefined }) {
  if (error)
    return (
      <p role="alert" className="rounded-lg bg-danger-600/10 p-3 text-sm text-danger-600">
        {error}
      </p>
    );
  return (
    <p role="status" className="text-sm">
      {result && (
        <>
          <span className="font-semibold">{formatDay(result.deliveryDate)}:</span> {runResultText(result)}
        </>
      )}
    </p>
  );
}
