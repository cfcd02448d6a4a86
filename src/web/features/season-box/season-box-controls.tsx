import { useId, useState } from 'react';
import type { SubscriptionView } from '../../../contracts/subscriptions';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import type { FieldErrors } from '../../lib/form-errors';
import { ChangeBoxForm } from './change-box-form';
import { seasonBoxActions } from './season-box-api';
import type { useSeasonBoxAction } from './use-season-box-action';

interface SeasonBoxControlsProps {
  view: SubscriptionView;
  action: ReturnType<typeof useSeasonBoxAction>;
  /** Tomorrow in New Zealand: the first day a pause can end on. */
  tomorrow: string;
  /** Not running yet (waiting for its card): it can only be cancelled. */
  cancelOnly?: boolean;
}

/** Change, Pause or Resume, and Cancel: each one or two clicks, never harder than signing up. */
export function SeasonBoxControls({ view, action, tomorrow, cancelOnly = false }: SeasonBoxControlsProps) {
  const [mode, setMode] = useState<'buttons' | 'change' | 'cancel'>('buttons');
  const [resumeOn, setResumeOn] = useState('');
  const busy = action.busy !== null;

  if (mode === 'change') return <ChangeBoxForm view={view} onDone={() => setMode('buttons')} />;
  if (mode === 'cancel') return <CancelConfirm busy={busy} onKeep={() => setMode('buttons')} onCancel={() => void action.run('cancel', () => seasonBoxActions.cancel(view.id), 'Your season box is cancelled')} />;

  const pause = async () => {
    if (await action.run('pause', () => seasonBoxActions.pause(view.id, resumeOn || null), 'Your season box is paused', ['resumeOn'])) setResumeOn('');
  };
  return (
    <div className="flex flex-wrap items-end gap-3">
      {!cancelOnly && (
        <Button variant="outline" disabled={busy} onClick={() => setMode('change')}>
          Change
        </Button>
      )}
      {cancelOnly ? null : view.status === 'paused' ? (
        <Button variant="outline" disabled={busy} onClick={() => void action.run('resume', () => seasonBoxActions.resume(view.id), 'Your season box is running again')}>
          {action.busy === 'resume' ? 'Resuming...' : 'Resume'}
        </Button>
      ) : (
        <PauseControl resumeOn={resumeOn} tomorrow={tomorrow} errors={action.fieldErrors} busy={busy} pausing={action.busy === 'pause'} onResumeOn={setResumeOn} onPause={() => void pause()} />
      )}
      <Button variant="ghost" disabled={busy} onClick={() => setMode('cancel')}>
        Cancel season box
      </Button>
    </div>
  );
}

interface PauseControlProps {
  resumeOn: string;
  tomorrow: string;
  errors: FieldErrors;
  busy: boolean;
  pausing: boolean;
  onResumeOn: (date: string) => void;
  onPause: () => void;
}

/** Pause now, with a day to start again if the shopper knows it (left empty: until they resume). */
function PauseControl({ resumeOn, tomorrow, errors, busy, pausing, onResumeOn, onPause }: PauseControlProps) {
  return (
    <div className="flex flex-wrap items-end gap-2 rounded-xl border border-ink-500/15 p-2">
      <TextField label="Start again on (optional)" type="date" min={tomorrow} value={resumeOn} onChange={(event) => onResumeOn(event.target.value)} error={errors.resumeOn} disabled={busy} className="text-sm" />
      <Button variant="outline" disabled={busy} onClick={onPause}>
        {pausing ? 'Pausing...' : 'Pause'}
      </Button>
    </div>
  );
}

function CancelConfirm({ busy, onKeep, onCancel }: { busy: boolean; onKeep: () => void; onCancel: () => void }) {
  const id = useId();
  return (
    <div role="group" aria-labelledby={id} className="grid gap-3 rounded-xl border border-danger-600/40 bg-white p-4">
      <p id={id} className="font-semibold">
        Cancel your season box?
      </p>
      <p className="text-sm text-ink-500">No box comes after this. Orders already made for it stay, and can be cancelled like any order.</p>
      <div className="flex flex-wrap gap-3">
        <Button variant="danger" disabled={busy} onClick={onCancel}>
          {busy ? 'Cancelling...' : 'Yes, cancel it'}
        </Button>
        <Button variant="ghost" disabled={busy} onClick={onKeep}>
          Keep my season box
        </Button>
      </div>
    </div>
  );
}
