import { useState } from 'react';
import { formatDateTime } from '../../../../contracts/dates';
import type { SubscriptionStopState } from '../../../../contracts/subscriptions';
import { Button } from '../../../components/ui/button';
import { Panel } from '../../../components/ui/panel';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useQuery, useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/query/mutation';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { fetchStopState, putStopped, stopStateKey } from './subscriptions-api';

/**
 * Staff's brake on every season box: while stopped no run makes an order, at a cut-off or started
 * early. Stopping asks first; turning back on does not, it is how things normally are.
 */
export function StopAllControl() {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: stopStateKey, queryFn: ({ signal }) => fetchStopState(signal), retry: false });
  const [asking, setAsking] = useState(false);
  const change = useMutation({
    mutationFn: (stopped: boolean) => putStopped(stopped),
    onSuccess: (state) => {
      setAsking(false);
      queryClient.setQueryData(stopStateKey, state);
      toast({ title: state.stopped ? 'All season boxes are stopped' : 'Season boxes are back on' });
    },
    onError: (error) => {
      setAsking(false);
      void queryClient.invalidateQueries({ queryKey: stopStateKey });
      toast({ title: 'Season boxes were not changed', description: errorMessage(error, 'Please try again.'), variant: 'destructive' });
    },
  });
  return (
    <Panel title="Stop all season boxes" className={`gap-3 ${query.data?.stopped ? 'ring-2 ring-danger-600' : ''}`}>
      {query.isPending ? (
        <Spinner compact label="Loading whether runs are on..." />
      ) : query.isError ? (
        <p role="alert" className="text-danger-600">
          {errorMessage(query.error, 'Whether season boxes are stopped could not be loaded. Please try again.')}
        </p>
      ) : (
        <StopState state={query.data} busy={change.isPending} onStop={() => setAsking(true)} onRestart={() => change.mutate(false)} />
      )}
      <ConfirmDialog
        open={asking}
        title="Stop all season boxes?"
        description="No run makes a season box's order until you turn them back on, and a run started early is refused. Orders already made stay as they are, and shoppers can still skip and change their boxes."
        confirmLabel="Stop all"
        cancelLabel="Keep them running"
        busy={change.isPending}
        onConfirm={() => change.mutate(true)}
        onCancel={() => setAsking(false)}
      />
    </Panel>
  );
}

function StopState({ state, busy, onStop, onRestart }: { state: SubscriptionStopState; busy: boolean; onStop: () => void; onRestart: () => void }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      {state.stopped ? (
        <p className="grid gap-0.5">
          <span className="font-semibold text-danger-600">Stopped{state.since && ` since ${formatDateTime(state.since)}`}</span>
          <span className="text-sm text-ink-500">No season box order is made, at its cut-off or by a run started early, until you turn them back on.</span>
        </p>
      ) : (
        <p className="grid gap-0.5">
          <span className="font-semibold text-leaf-700">Runs are on</span>
          <span className="text-sm text-ink-500">Each box's order is made at its cut-off. Stop all if the fruit or the packing cannot keep up.</span>
        </p>
      )}
      {state.stopped ? (
        <Button disabled={busy} onClick={onRestart}>
          {busy ? 'Working…' : 'Turn back on'}
        </Button>
      ) : (
        <Button variant="danger" onClick={onStop}>
          Stop all
        </Button>
      )}
    </div>
  );
}
