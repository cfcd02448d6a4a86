import { useQuery, useQueryClient } from '../../lib/query';
import { useMutation } from '../../lib/query/mutation';
import { useId, useState } from 'react';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api-client';
import type { ReminderSettings as ReminderSettingsValue } from '../../../contracts/user';
import { fetchReminders, putReminders, remindersKey } from './account-api';

type Choice = keyof ReminderSettingsValue;

const choiceText: Record<Choice, { label: string; hint: string }> = {
  ripenessReminders: {
    label: 'E-mail me when my mangoes should be ready to eat',
    hint: 'One short e-mail on the first ready day of each order, counted from the harvest date of the fruit we packed. The ripening guide comes with every shipping e-mail either way.',
  },
  reviewRequests: {
    label: 'Ask me how my mangoes were',
    hint: 'One e-mail a few days after an order should be ready to eat, with a link to review what you bought. You can review on the product page either way.',
  },
};

/** One e-mail choice, saved as soon as it is ticked. */
function ChoiceBox({ choice, saved }: { choice: Choice; saved: boolean }) {
  const queryClient = useQueryClient();
  const hintId = useId();
  // What the shopper just ticked shows at once; a failed save puts the box back.
  const [ticked, setTicked] = useState<boolean | null>(null);
  const change = useMutation({
    mutationFn: (on: boolean) => putReminders(choice === 'reviewRequests' ? { reviewRequests: on } : { ripenessReminders: on }),
    onSuccess: (answer) => queryClient.setQueryData(remindersKey, answer),
    onSettled: () => setTicked(null),
  });
  const on = ticked ?? saved;
  return (
    <div className="grid gap-2">
      <label className="flex items-start gap-3">
        <input
          type="checkbox"
          className="mt-1 size-4 accent-mango-600"
          checked={on}
          aria-describedby={hintId}
          // Kept focusable while saving (a disabled box would drop keyboard focus); a second press waits.
          aria-disabled={change.isPending}
          onChange={(event) => {
            if (change.isPending) return;
            setTicked(event.target.checked);
            change.mutate(event.target.checked);
          }}
        />
        <span>
          <span className="font-semibold">{choiceText[choice].label}</span>
          <span id={hintId} className="block text-sm text-ink-500">{choiceText[choice].hint}</span>
        </span>
      </label>
      {change.isError && (
        <p role="alert" className="text-sm text-danger-600">
          {errorMessage(change.error, 'Your choice was not saved. Please try again.')}
        </p>
      )}
      {/* Always there, so screen readers announce the word when it appears. */}
      <p role="status" className="min-h-5 text-sm text-leaf-700">
        {change.isPending ? 'Saving...' : change.isSuccess ? 'Saved.' : ''}
      </p>
    </div>
  );
}

/** The shopper's choice of the e-mails about an order's fruit: when it should be ready, and how it was. */
export function ReminderSettings() {
  const query = useQuery({ queryKey: remindersKey, queryFn: ({ signal }) => fetchReminders(signal) });
  if (query.isPending) return <Spinner compact label="Loading your e-mail choices..." />;
  if (query.isError) return <p role="alert" className="text-danger-600">Your e-mail choices could not be loaded. Please try again in a moment.</p>;
  return (
    <div className="grid gap-2">
      <ChoiceBox choice="ripenessReminders" saved={query.data.ripenessReminders} />
      <ChoiceBox choice="reviewRequests" saved={query.data.reviewRequests} />
    </div>
  );
}
