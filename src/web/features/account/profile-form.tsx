import { type ChangeEvent, useState } from 'react';
import { nzRegions } from '../../../contracts/order';
import { profileSchema, type User } from '../../../contracts/user';
import { Button } from '../../components/ui/button';
import { SelectField } from '../../components/ui/select-field';
import { TextField } from '../../components/ui/text-field';
import { toast } from '../../components/ui/toast';
import { ApiError } from '../../lib/api-client';
import { useSchemaForm } from '../../lib/use-schema-form';
import { useAuth } from '../auth/auth-provider';
import { putProfile } from './account-api';

type ProfileFields = { firstName: string; lastName: string; phone: string; address: string; city: string; postalCode: string; region: string };

/** Name, phone and address; checkout starts its delivery form from these. */
export function ProfileForm({ user }: { user: User }) {
  const { signedIn } = useAuth();
  const [form, setForm] = useState<ProfileFields>(() => ({
    firstName: user.firstName,
    lastName: user.lastName,
    phone: user.phone,
    address: user.address,
    city: user.city,
    postalCode: user.postalCode,
    region: user.region,
  }));
  const { errors, busy, handleSubmit, revalidate } = useSchemaForm(profileSchema, {
    async send(data) {
      signedIn(await putProfile(data));
      toast({ title: 'Profile saved', description: 'Your details have been updated.' });
    },
    onError(error) {
      toast({ title: 'Profile not saved', description: error instanceof ApiError ? error.body?.message : 'Please try again.', variant: 'destructive' });
    },
  });
  const change = (next: ProfileFields) => {
    setForm(next);
    revalidate(next);
  };
  const field = (name: Exclude<keyof ProfileFields, 'region'>) => ({
    value: form[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => change({ ...form, [name]: event.target.value }),
    error: errors[name],
  });
  return (
    <form onSubmit={handleSubmit(form)} noValidate className="grid gap-4">
      <p className="text-sm text-ink-500">
        Signed in as <strong>{user.username}</strong> ({user.email})
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="First name" autoComplete="given-name" {...field('firstName')} />
        <TextField label="Last name" autoComplete="family-name" {...field('lastName')} />
      </div>
      <TextField label="Phone" type="tel" autoComplete="tel" {...field('phone')} />
      <TextField label="Street address" autoComplete="street-address" {...field('address')} />
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField label="Town or city" autoComplete="address-level2" {...field('city')} />
        <TextField label="Postcode" inputMode="numeric" maxLength={4} autoComplete="postal-code" {...field('postalCode')} />
        <SelectField
          label="Region"
          options={nzRegions}
          placeholder="Choose a region"
          value={form.region}
          onChange={(event) => change({ ...form, region: event.target.value })}
          error={errors.region}
        />
      </div>
      <Button type="submit" disabled={busy} className="justify-self-start">
        {busy ? 'Saving...' : 'Save profile'}
      </Button>
    </form>
  );
}
