import { useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/query/mutation';
import { ShieldCheck, ShieldOff } from 'lucide-react';
import { useState } from 'react';
import type { CustomerDetail } from '../../../../contracts/customers';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../auth/auth-provider';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { customerKey, putCustomerAdmin } from './customers-api';

/** "Make admin" or "Remove admin", asked first; the server keeps at least one admin. */
export function CustomerAdminRole({ customer }: { customer: CustomerDetail }) {
  const queryClient = useQueryClient();
  const { user, signedIn } = useAuth();
  const [asking, setAsking] = useState(false);
  const grant = !customer.isAdmin;
  const isSelf = user?.id === customer.id;
  const who = customer.name || customer.username;

  const change = useMutation({
    mutationFn: () => putCustomerAdmin(customer.id, grant),
    onSuccess(next) {
      setAsking(false);
      if (isSelf && user && !next.isAdmin) {
        // The server already answers 403 to this session's staff calls: leave the admin area and its cached data.
        signedIn({ ...user, isAdmin: false });
        queryClient.removeQueries({ queryKey: ['admin'] });
        toast({ title: 'You are no longer an admin', description: 'Your account now has customer access only.' });
        return;
      }
      queryClient.setQueryData(customerKey(customer.id), next);
      void queryClient.invalidateQueries({ queryKey: ['admin'] });
      toast({ title: next.isAdmin ? `${who} is now an admin` : `${who} is no longer an admin` });
    },
    onError(error) {
      setAsking(false);
      void queryClient.invalidateQueries({ queryKey: customerKey(customer.id) });
      const message = error instanceof ApiError ? error.body?.message : undefined;
      toast({ title: 'The admin role was not changed', description: message ?? 'Please try again.', variant: 'destructive' });
    },
  });

  const title = grant ? `Make ${who} an admin?` : isSelf ? 'Remove your own admin role?' : `Remove admin from ${who}?`;
  const description = grant
    ? 'They can then manage products, orders, customers and settings, and see every customer’s details.'
    : isSelf
      ? 'You lose access to the admin area as soon as you confirm. Another admin can give it back.'
      : 'They keep their customer account and orders but can no longer open the admin area.';
  return (
    <>
      <Button variant="outline" onClick={() => setAsking(true)}>
        {grant ? <ShieldCheck className="size-4" aria-hidden="true" /> : <ShieldOff className="size-4" aria-hidden="true" />}
        {grant ? 'Make admin' : 'Remove admin'}
      </Button>
      <ConfirmDialog
        open={asking}
        title={title}
        description={description}
        confirmLabel={grant ? 'Make admin' : 'Remove admin'}
        cancelLabel={grant ? 'Cancel' : 'Keep it'}
        busy={change.isPending}
        onConfirm={() => change.mutate()}
        onCancel={() => setAsking(false)}
      />
    </>
  );
}
