import { Building2, CheckCircle2, CreditCard } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { isRuralAddress } from '../../../contracts/checkout';
import { dollarsToCents } from '../../../contracts/money';
import type { CheckoutPaymentMethod } from '../../../contracts/order';
import type { Product } from '../../../contracts/product';
import { intervalLabels, maxBoxesPerDelivery, subscribeSchema, type SubscriptionInterval, subscriptionIntervals, type SubscriptionView } from '../../../contracts/subscriptions';
import type { User } from '../../../contracts/user';
import { Button } from '../../components/ui/button';
import { ErrorSummary } from '../../components/ui/error-summary';
import { QuantityStepper } from '../../components/ui/quantity-stepper';
import { toast } from '../../components/ui/toast';
import { ApiError } from '../../lib/api-client';
import { fieldsInError } from '../../lib/form-errors';
import { useQueryClient } from '../../lib/query';
import { useSchemaForm } from '../../lib/use-schema-form';
import { useDeliveryDates } from '../checkout/delivery-date-picker';
import { type ShippingForm, ShippingFields, shippingFromProfile } from '../checkout/shipping-fields';
import { useSettings } from '../frame/use-settings';
import { FirstDeliveryPicker } from './first-delivery-picker';
import { seasonBoxesKey, subscribe, useSeasonBoxPayments } from './season-box-api';
import { SeasonBoxSummary } from './season-box-summary';
import { dayWords } from '../../../contracts/season-box-terms';

interface SubscribeFormProps {
  product: Product;
  user: User;
  /** One box's price, the subscriber discount taken off. */
  unitCents: number;
  onClose: () => void;
}

const legend = 'mb-1 text-lg font-semibold';
const choice = 'flex cursor-pointer items-center gap-2 rounded-xl border border-ink-500/30 px-4 py-3 font-medium has-[:checked]:border-mango-600 has-[:checked]:bg-mango-50';

/** Starting a season box: how often, how many, where to, the first day, and how it is paid. */
export default function SubscribeForm({ product, user, unitCents, onClose }: SubscribeFormProps) {
  const queryClient = useQueryClient();
  const shippingDollars = useSettings().data?.shipping;
  const [every, setEvery] = useState<SubscriptionInterval>('week');
  const [quantity, setQuantity] = useState(1);
  const [shipping, setShipping] = useState<ShippingForm>(() => shippingFromProfile(user));
  const [firstDeliveryDate, setFirstDeliveryDate] = useState<string>();
  // Days the server said no to (too soon, full): greyed out, so the shopper picks another.
  const [refused, setRefused] = useState<ReadonlySet<string>>(() => new Set());
  const [problem, setProblem] = useState<string | null>(null);
  const [started, setStarted] = useState<SubscriptionView | null>(null);
  const methods = useSeasonBoxPayments().data ?? [];
  const [chosenPayment, setPayment] = useState<CheckoutPaymentMethod>();
  const payment = chosenPayment && methods.includes(chosenPayment) ? chosenPayment : (methods[0] ?? 'bank_transfer');
  // The same request as the picker's: it says what rural delivery adds.
  const dates = useDeliveryDates(shipping.region, quantity, payment);
  const rural = isRuralAddress(shipping);
  const ruralCents = rural ? (dates.data ? dollarsToCents(dates.data.ruralSurcharge) : undefined) : 0;
  const deliveryCents = shippingDollars === undefined || ruralCents === undefined ? undefined : dollarsToCents(shippingDollars) + ruralCents;

  const values = { productId: product.id, quantity, every, firstDeliveryDate: firstDeliveryDate ?? '', shipping, paymentMethod: payment };
  const { errors, busy, handleSubmit, revalidate } = useSchemaForm(subscribeSchema, {
    async send(data) {
      setProblem(null);
      const view = await subscribe(data);
      // By card: on to Stripe's page to save it; the season box starts once it is saved.
      if (view.cardSetupUrl) {
        window.location.assign(view.cardSetupUrl);
        return;
      }
      // By card, with Stripe out of reach for a moment: the box waits for its card on My account.
      if (view.status === 'awaiting_card') {
        setProblem('Your season box is saved, but we could not open the card page just now. Open My account and press Save your card to start it.');
        return;
      }
      setStarted(view);
      void queryClient.invalidateQueries({ queryKey: seasonBoxesKey });
    },
    onError(error) {
      const body = error instanceof ApiError ? error.body : null;
      const chosen = firstDeliveryDate;
      if (body?.fieldErrors?.firstDeliveryDate && chosen) {
        setRefused((now) => new Set(now).add(chosen));
        void queryClient.invalidateQueries({ queryKey: ['delivery-dates'] });
      }
      // Field errors are beside their fields (and listed by the button); anything else is told here.
      setProblem(body?.fieldErrors && fieldsInError(body.fieldErrors).length ? null : (body?.message ?? 'We could not start your season box. Please check your connection and try again.'));
      toast({ title: 'Season box not started', description: body?.message ?? 'Please try again.', variant: 'destructive' });
    },
  });
  const change = (next: Partial<typeof values>) => revalidate({ ...values, ...next });

  if (started) {
    return (
      <div role="status" className="grid gap-2 rounded-xl bg-mango-50 p-4">
        <p className="flex items-center gap-2 text-lg font-semibold">
          <CheckCircle2 className="size-5 text-leaf-700" aria-hidden="true" /> Your season box is set up
        </p>
        <p>
          Your first box comes on <span className="font-semibold">{dayWords(started.firstDeliveryDate)}</span>. {intervalLabels[started.every]}, {started.quantity} × {started.product.name}. We have e-mailed you the details.
        </p>
        <Link to="/account#season-box" className="justify-self-start font-semibold text-mango-700 underline-offset-2 hover:underline">
          See your season box in My account
        </Link>
      </div>
    );
  }

  return (
    <form onSubmit={handleSubmit(values)} noValidate aria-label="Start a season box" className="grid gap-6 border-t border-mango-500/30 pt-4">
      <fieldset className="grid gap-2" data-field="every" data-invalid={errors.every ? 'true' : undefined}>
        <legend className={legend}>How often</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {subscriptionIntervals.map((interval) => (
            <label key={interval} className={choice}>
              <input
                type="radio"
                name="season-box-every"
                value={interval}
                className="size-4 accent-mango-600"
                checked={every === interval}
                onChange={() => {
                  setEvery(interval);
                  change({ every: interval });
                }}
              />
              {intervalLabels[interval]}
            </label>
          ))}
        </div>
        {errors.every && <p role="alert" className="text-sm text-danger-600">{errors.every}</p>}
      </fieldset>

      <div className="grid gap-2" data-field="quantity" data-invalid={errors.quantity ? 'true' : undefined}>
        <p className={legend}>Boxes each time</p>
        <QuantityStepper
          value={quantity}
          max={maxBoxesPerDelivery}
          label="Boxes each time"
          onChange={(next) => {
            setQuantity(next);
            change({ quantity: next });
          }}
        />
        {errors.quantity && <p role="alert" className="text-sm text-danger-600">{errors.quantity}</p>}
      </div>

      <fieldset className="grid gap-3">
        <legend className={legend}>Delivery address</legend>
        <ShippingFields
          value={shipping}
          offerSave={false}
          errors={errors}
          ruralSurcharge={dates.data?.ruralSurcharge}
          onChange={(next) => {
            setShipping(next);
            change({ shipping: next });
          }}
        />
      </fieldset>

      <FirstDeliveryPicker
        region={shipping.region}
        boxes={quantity}
        every={every}
        seasonEndsOn={product.seasonEndsOn}
        refused={refused}
        value={firstDeliveryDate}
        error={errors.firstDeliveryDate}
        onChange={(date) => {
          setFirstDeliveryDate(date);
          // A day dropped because it is gone keeps the server's word on it until another is chosen.
          if (date) change({ firstDeliveryDate: date });
        }}
      />

      <fieldset className="grid gap-2" data-field="paymentMethod" data-invalid={errors.paymentMethod ? 'true' : undefined}>
        <legend className={legend}>Payment</legend>
        {methods.length === 0 && <p className="text-sm text-ink-500">Loading how you can pay...</p>}
        {methods.includes('bank_transfer') && (
          <label className="flex cursor-pointer gap-3 rounded-xl border border-ink-500/30 p-4 has-[:checked]:border-mango-600 has-[:checked]:bg-mango-50">
            <input type="radio" name="season-box-payment" value="bank_transfer" className="mt-1 size-4 accent-mango-600" checked={payment === 'bank_transfer'} onChange={() => { setPayment('bank_transfer'); change({ paymentMethod: 'bank_transfer' }); }} />
            <span className="grid gap-1">
              <span className="flex items-center gap-2 font-semibold">
                <Building2 className="size-5" aria-hidden="true" /> Bank transfer
              </span>
              <span className="text-sm text-ink-500">Paid by bank transfer, box by box. Each box becomes an order at its cut-off: pay it with its order number as the reference before it is packed.</span>
            </span>
          </label>
        )}
        {methods.includes('stripe') && (
          <label className="flex cursor-pointer gap-3 rounded-xl border border-ink-500/30 p-4 has-[:checked]:border-mango-600 has-[:checked]:bg-mango-50">
            <input type="radio" name="season-box-payment" value="stripe" className="mt-1 size-4 accent-mango-600" checked={payment === 'stripe'} onChange={() => { setPayment('stripe'); change({ paymentMethod: 'stripe' }); }} />
            <span className="grid gap-1">
              <span className="flex items-center gap-2 font-semibold">
                <CreditCard className="size-5" aria-hidden="true" /> Card
              </span>
              <span className="text-sm text-ink-500">You save your card on Stripe's secure page; each box is charged to it at its cut-off. Nothing is charged now.</span>
            </span>
          </label>
        )}
        {errors.paymentMethod && <p role="alert" className="text-sm text-danger-600">{errors.paymentMethod}</p>}
      </fieldset>

      <SeasonBoxSummary
        productName={product.name}
        unitCents={unitCents}
        discountPercent={product.subscriberDiscountPercent}
        quantity={quantity}
        deliveryCents={deliveryCents}
        rural={rural}
        every={every}
        seasonEndsOn={product.seasonEndsOn}
      />

      <ErrorSummary errors={errors} />
      {problem && (
        <p role="alert" className="rounded-lg border border-danger-600/40 bg-white px-3 py-2 text-sm text-danger-600">
          {problem}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={busy} className="py-3 text-base">
          {busy ? 'Starting...' : payment === 'stripe' ? 'Save my card and start' : 'Start my season box'}
        </Button>
        <Button variant="ghost" onClick={onClose} disabled={busy}>
          Not now
        </Button>
      </div>
    </form>
  );
}
