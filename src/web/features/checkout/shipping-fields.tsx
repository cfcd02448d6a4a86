import type { ChangeEvent } from 'react';
import type { ShippingDetails } from '../../../contracts/checkout';
import { looksRural } from '../../../contracts/delivery';
import { nzRegions } from '../../../contracts/order';
import { formatPrice } from '../../lib/format';
import type { User } from '../../../contracts/user';
import { SelectField } from '../../components/ui/select-field';
import { TextField } from '../../components/ui/text-field';
import type { FieldErrors } from '../../lib/form-errors';

export type ShippingForm = Omit<ShippingDetails, 'region'> & { region: string };

/** The delivery form starts from the shopper's profile. */
export function shippingFromProfile(user: User): ShippingForm {
  return {
    name: `${user.firstName} ${user.lastName}`.trim(),
    phone: user.phone,
    street: user.address,
    suburb: '',
    city: user.city,
    postcode: user.postalCode,
    region: (nzRegions as readonly string[]).includes(user.region) ? user.region : '',
    deliveryInstructions: '',
    rural: false,
    saveToProfile: false,
  };
}

interface ShippingFieldsProps {
  value: ShippingForm;
  /** What rural delivery adds, in dollars, once known. */
  ruralSurcharge?: number;
  onChange: (next: ShippingForm) => void;
  /** Errors keyed as the order schema reports them ('shipping.phone'). */
  errors: FieldErrors;
  /** A gift: the details are the recipient's, and never saved to the buyer's profile. */
  gift?: boolean;
  /** Offers to save the details to the profile (a season box keeps its own address, and saves nothing). */
  offerSave?: boolean;
}

/** The form emptied for a gift's recipient: nothing of the buyer's own address stays in it. */
export function emptyRecipient(): ShippingForm {
  return { name: '', phone: '', street: '', suburb: '', city: '', postcode: '', region: '', deliveryInstructions: '', rural: false, saveToProfile: false };
}

/** Name, NZ phone, street, suburb, city, 4-digit postcode, region and delivery instructions. */
export function ShippingFields({ value, onChange, errors, ruralSurcharge, gift = false, offerSave = true }: ShippingFieldsProps) {
  const rdNumber = looksRural(value.street, value.suburb, value.city);
  const field = (name: 'name' | 'phone' | 'street' | 'suburb' | 'city' | 'postcode') => ({
    value: value[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => onChange({ ...value, [name]: event.target.value }),
    error: errors[`shipping.${name}`],
    'data-field': `shipping.${name}`,
  });
  return (
    <div className="grid gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label={gift ? 'Recipient’s full name' : 'Full name'} autoComplete={gift ? 'off' : 'shipping name'} {...field('name')} />
        <TextField label={gift ? 'Recipient’s phone' : 'Phone'} type="tel" autoComplete={gift ? 'off' : 'shipping tel'} placeholder="021 123 4567" {...field('phone')} />
      </div>
      <TextField label="Street address" autoComplete="shipping address-line1" {...field('street')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Suburb (optional)" autoComplete="shipping address-line2" {...field('suburb')} />
        <TextField label="Town or city" autoComplete="shipping address-level2" {...field('city')} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Postcode" inputMode="numeric" maxLength={4} autoComplete="shipping postal-code" {...field('postcode')} />
        <SelectField
          label="Region"
          autoComplete="shipping address-level1"
          options={nzRegions}
          placeholder="Choose a region"
          value={value.region}
          onChange={(event) => onChange({ ...value, region: event.target.value })}
          error={errors['shipping.region']}
          data-field="shipping.region"
        />
      </div>
      <div className="grid gap-1.5">
        <label htmlFor="delivery-instructions" className="text-sm font-medium">
          Delivery instructions (optional)
        </label>
        <textarea
          id="delivery-instructions"
          maxLength={300}
          rows={2}
          value={value.deliveryInstructions}
          onChange={(event) => onChange({ ...value, deliveryInstructions: event.target.value })}
          aria-invalid={errors['shipping.deliveryInstructions'] ? true : undefined}
          data-field="shipping.deliveryInstructions"
          placeholder="For example: leave by the garage door"
          className="w-full rounded-lg border border-ink-500/30 bg-white px-3 py-2.5 text-base outline-none focus:border-mango-600 focus:ring-2 focus:ring-mango-500/40"
        />
        {errors['shipping.deliveryInstructions'] && (
          <p role="alert" className="text-sm text-danger-600">
            {errors['shipping.deliveryInstructions']}
          </p>
        )}
      </div>
      <div className="grid gap-1">
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="size-4 accent-mango-600"
            checked={value.rural || rdNumber}
            disabled={rdNumber}
            aria-describedby="rural-help"
            onChange={(event) => onChange({ ...value, rural: event.target.checked })}
          />
          Rural delivery
        </label>
        <p id="rural-help" className="pl-6 text-xs text-ink-500">
          {rdNumber ? 'Your address has a Rural Delivery (RD) number, so rural delivery applies' : 'Tick if your address is on a rural delivery run'}
          {ruralSurcharge ? `: couriers charge ${formatPrice(ruralSurcharge)} more (GST included).` : '.'}
        </p>
      </div>
      {!gift && offerSave && (
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="size-4 accent-mango-600"
            checked={value.saveToProfile}
            onChange={(event) => onChange({ ...value, saveToProfile: event.target.checked })}
          />
          Save these details to my profile
        </label>
      )}
    </div>
  );
}
