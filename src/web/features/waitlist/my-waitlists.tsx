import { useQueryClient } from '../../lib/query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { WaitlistEntryView } from '../../../contracts/waitlist';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { errorMessage } from '../../lib/api-client';
import { formatDate } from '../../lib/format';
import { leaveWaitlist, useMyWaitlists, waitlistKey } from './waitlist-api';

/** The shopper's "Notify me" sign-ups still waiting, each with a way off the list. */
export function MyWaitlists() {
  const query = useMyWaitlists();
  if (query.isPending) return <Spinner compact label="Loading your waitlists..." />;
  if (query.isError) return <p role="alert" className="text-danger-600">Your waitlists could not be loaded. Please try again in a moment.</p>;
  if (!query.data.length) {
    return (
      <p className="text-ink-500">
        You are on no waitlist. When a variety is sold out or its pre-orders are full, press Notify me on its page and we will e-mail you once when it is back.
      </p>
    );
  }
  return (
    <ul className="divide-y divide-mango-50" aria-label="Your waitlists">
      {query.data.map((entry) => (
        <WaitlistRow key={entry.id} entry={entry} />
      ))}
    </ul>
  );
}

function WaitlistRow({ entry }: { entry: WaitlistEntryView }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();

  async function leave() {
    setBusy(true);
    setFailure(undefined);
    try {
      await leaveWaitlist(entry.id);
    } catch (error) {
      // Already off the list (another tab, or the link in a mail): the refresh below shows it.
      setFailure(errorMessage(error, 'You could not be taken off this waitlist. Please try again.'));
    }
    await queryClient.invalidateQueries({ queryKey: waitlistKey });
    setBusy(false);
  }

  return (
    <li className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-3">
      <div>
        <Link to={`/product/${entry.productId}`} className="font-semibold text-mango-700 hover:underline">
          {entry.productName}
        </Link>
        <p className="text-sm text-ink-500">Joined {formatDate(entry.joinedAt)}. We will e-mail you once when it is back.</p>
        {failure && (
          <p role="alert" className="text-sm text-danger-600">
            {failure}
          </p>
        )}
      </div>
      <Button variant="outline" onClick={() => void leave()} disabled={busy} aria-label={`Leave the waitlist for ${entry.productName}`}>
        {busy ? 'Leaving...' : 'Leave'}
      </Button>
    </li>
  );
}
