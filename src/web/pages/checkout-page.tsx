import { keepPreviousData, useQuery, useQueryClient } from '../lib/query';
import { Building2, CreditCard, Lock } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { boxesOf, canSendSeparately, isRuralAddress, needsDeliveryDate, placeOrderSchema } from '../../contracts/checkout';
import { dollarsToCents } from '../../contracts/money';
import { type CheckoutPaymentMethod as PaymentMethod, paymentMethodLabels } from '../../contracts/order';
import type { Fulfilment } from '../../contracts/pickup';
import type { User } from '../../contracts/user';
import { Button } from '../components/ui/button';
import { ErrorSummary } from '../components/ui/error-summary';
import { Panel } from '../components/ui/panel';
import { Spinner } from '../components/ui/spinner';
import { toast } from '../components/ui/toast';
import { fetchMe } from '../features/auth/api/session';
import { useAuth } from '../features/auth/auth-provider';
import { CartLines } from '../features/cart/cart-lines';
import { useCart } from '../features/cart/cart-provider';
import { useSettings } from '../features/frame/use-settings';
import { DeliveryDatePicker, useDeliveryDates } from '../features/checkout/delivery-date-picker';
import { PromoField } from '../features/checkout/promo-field';
import { FulfilmentChoice } from '../features/checkout/fulfilment-choice';
import { GiftFields } from '../features/checkout/gift-fields';
import { SendChoice } from '../features/checkout/send-choice';
import { PickupDayPicker, pickupDatesKey, usePickupDates } from '../features/checkout/pickup-day-picker';
import { emptyRecipient, type ShippingForm, ShippingFields, shippingFromProfile } from '../features/checkout/shipping-fields';
import { newIdempotencyKey, orderQueryKey, ordersQueryKey, postOrderThroughRush, postQuote } from '../features/orders/orders-api';
import { OrderTotals } from '../features/orders/order-totals';
import { trackInitiateCheckout } from '../lib/analytics-events';
import { ApiError } from '../lib/api-client';
import { formatDate } from '../lib/format';
import { useBrowserValue } from '../lib/browser-value';
import { fieldsInError } from '../lib/form-errors';
import { useSchemaForm } from '../lib/use-schema-form';
import { readSavedPromo, savePromo } from '../features/checkout/saved-promo';

/** Issue 4: sign-in required; visitors go to /auth and come back here. */
export default function CheckoutPage() {
  const { user, checking } = useAuth();
  if (!user) return checking ? <Spinner /> : <Navigate to="/auth?redirect=%2Fcheckout" replace />;
  return <Checkout user={user} />;
}

const paymentHelp: Record<PaymentMethod, string> = {
  bank_transfer: 'Pay into our bank account with your order number as the reference, before your day’s packing cut-off (we show the time once you order). We pack your order once it is paid.',
  stripe: 'Pay securely on Stripe’s page with a credit or debit card. Your card details never reach us.',
};

function Checkout({ user }: { user: User }) {
  const { cart, loading, reload } = useCart();
  const { signedIn } = useAuth();
  const settingsNow = useSettings().data;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // The code applied here, or (until the shopper applies or removes one) the one kept from before a reload.
  const savedPromo = useBrowserValue(() => readSavedPromo(user.id), null);
  const [chosenPromo, setChosenPromo] = useState<string | null>();
  const promoCode = (chosenPromo === undefined ? savedPromo : chosenPromo) ?? undefined;
  const setPromoCode = (code: string | undefined) => {
    setChosenPromo(code ?? null);
    savePromo(user.id, code);
  };
  const [shipping, setShipping] = useState<ShippingForm>(() => shippingFromProfile(user));
  // A gift goes to someone else: the buyer's own details wait here while the form holds the recipient's.
  const [gift, setGift] = useState(false);
  const [giftMessage, setGiftMessage] = useState('');
  const [ownShipping, setOwnShipping] = useState<ShippingForm | null>(null);
  // Collected from the shop (when it offers pickup): no address, no delivery fee, a pickup day.
  const [fulfilment, setFulfilment] = useState<Fulfilment>('delivery');
  const [pickupDate, setPickupDate] = useState<string>();
  const pickup = fulfilment === 'pickup';
  const [paymentMethod, setPaymentMethod] = useState<PaymentMethod>('bank_transfer');
  const [deliveryDate, setDeliveryDate] = useState<string>();
  // In-stock and pre-order boxes together: one delivery once the pre-orders arrive, as the order
  // has always gone, unless the shopper asks for what is ready to come now (decision 0047).
  const [sendSeparately, setSendSeparately] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // Many people are ordering at once: checkout is trying again by itself.
  const [waiting, setWaiting] = useState(false);
  // One key for this visit: a double click or a retry after a lost answer finds the same order.
  const [idempotencyKey] = useState(newIdempotencyKey);

  const items = cart?.items ?? [];
  const cartShape = items.map((item) => `${item.id}:${item.quantity}`).join(',');
  const rural = !pickup && isRuralAddress(shipping);
  const quote = useQuery({
    queryKey: ['checkout-quote', user.id, promoCode ?? '', cartShape, rural, fulfilment],
    queryFn: ({ signal }) => postQuote(promoCode, rural, signal, fulfilment),
    enabled: items.length > 0,
    placeholderData: keepPreviousData,
    retry: false,
  });
  const priced = quote.data;
  // The ways this shop can be paid now (bank transfer needs its account number set): the choice, or the first offered.
  const methods = priced?.paymentMethods ?? [];
  const payment = methods.includes(paymentMethod) ? paymentMethod : methods[0];
  const pickupDates = usePickupDates(payment);
  // Pre-orders get their day when their boxes arrive; in-stock boxes are booked on a day now.
  const mixed = Boolean(priced) && !pickup && canSendSeparately(priced!.lines);
  const separately = mixed && sendSeparately;
  const needsDate = priced && !pickup ? needsDeliveryDate(priced.lines) || separately : false;
  const hasPreOrders = priced?.lines.some((line) => line.isPreOrder) ?? false;
  const pickupOffered = Boolean(pickupDates.data?.enabled);
  // Sent in two deliveries, the chosen day holds only the in-stock boxes.
  const boxes = priced ? boxesOf(separately ? priced.lines.filter((line) => !line.isPreOrder) : priced.lines) : 0;
  const { data: dates } = useDeliveryDates(shipping.region, boxes, payment, needsDate);
  const schema = useMemo(
    () => (needsDate ? placeOrderSchema.refine((value) => Boolean(value.deliveryDate), { message: 'Choose a delivery date', path: ['deliveryDate'], when: () => true }) : placeOrderSchema),
    [needsDate],
  );

  const initiated = useRef(false);
  useEffect(() => {
    if (initiated.current || !priced) return;
    initiated.current = true;
    trackInitiateCheckout(
      priced.lines.map((line) => ({ id: line.productId, name: line.name, price: line.unitPrice, quantity: line.quantity })),
      priced.total,
    );
  }, [priced]);

  const order = {
    fulfilment,
    shipping: pickup ? undefined : shipping,
    pickupDate: pickup ? pickupDate : undefined,
    promoCode: priced?.promo?.applied ? priced.promo.code : undefined,
    deliveryDate: needsDate ? deliveryDate : undefined,
    sendSeparately: separately,
    paymentMethod: payment,
    gift: gift && !pickup ? { message: giftMessage } : undefined,
    idempotencyKey,
    // The total on screen: the server refuses the order if it would charge anything else.
    expectedTotalCents: priced ? dollarsToCents(priced.total) : undefined,
  };
  const { errors, busy, handleSubmit, revalidate } = useSchemaForm(schema, {
    async send(data) {
      setProblem(null);
      const placed = await postOrderThroughRush(data, setWaiting);
      savePromo(user.id, undefined);
      queryClient.setQueryData(orderQueryKey(placed.order.number), placed.order);
      if (data.shipping?.saveToProfile) void fetchMe().then((me) => me && signedIn(me));
      void queryClient.invalidateQueries({ queryKey: ordersQueryKey });
      if (placed.checkoutUrl) {
        window.location.assign(placed.checkoutUrl);
        return;
      }
      navigate(`/success?order=${encodeURIComponent(placed.order.number)}`, { replace: true });
      void reload();
    },
    onError(error) {
      const body = error instanceof ApiError ? error.body : null;
      if (error instanceof ApiError && error.status === 409 && body?.fieldErrors?.pickupDate) {
        // The pickup day filled up meanwhile: offer the soonest free one, to be confirmed with Place order.
        setProblem(body.message);
        setPickupDate(body.nextPickupDate);
        void queryClient.invalidateQueries({ queryKey: pickupDatesKey });
      } else if (error instanceof ApiError && error.status === 409 && body?.fieldErrors?.deliveryDate) {
        // The day filled up meanwhile: offer the next free one, to be confirmed with Place order.
        setProblem(body.message);
        setDeliveryDate(body.nextDeliveryDate);
        void queryClient.invalidateQueries({ queryKey: ['delivery-dates'] });
      } else if (error instanceof ApiError && (error.status === 409 || body?.fieldErrors?.promoCode)) {
        // The cart, a price or the promo code changed under the shopper: show the fresh quote.
        setProblem(body?.message ?? 'Something in your cart changed. Please check it and try again.');
        void reload();
        void quote.refetch();
      } else if (error instanceof ApiError && error.status === 400 && body?.fieldErrors) {
        // The summary by the button lists the fields on the page, and focus is already on the first;
        // an error of none of them is told here.
        setProblem(fieldsInError(body.fieldErrors).length ? null : (body.message ?? 'Please check your details and try again.'));
      } else {
        setProblem(body?.message ?? 'We could not place your order. Please check your connection and try again; you will not be charged twice.');
      }
      toast({ title: 'Order not placed', description: body?.message ?? 'Please try again.', variant: 'destructive' });
    },
  });

  const changeShipping = (next: ShippingForm) => {
    setShipping(next);
    revalidate({ ...order, shipping: next });
  };
  const changeGift = (next: boolean) => {
    setGift(next);
    let form: ShippingForm;
    if (next) {
      setOwnShipping(shipping);
      form = emptyRecipient();
    } else form = ownShipping ?? shippingFromProfile(user);
    setShipping(form);
    revalidate({ ...order, shipping: form, gift: next ? { message: giftMessage } : undefined });
  };
  const changeGiftMessage = (message: string) => {
    setGiftMessage(message);
    revalidate({ ...order, gift: { message } });
  };
  const changeDate = useCallback((date: string | undefined) => setDeliveryDate(date), []);
  const changePickupDate = useCallback((date: string | undefined) => setPickupDate(date), []);
  const changeFulfilment = (next: Fulfilment) => {
    setFulfilment(next);
    revalidate({ ...order, fulfilment: next, shipping: next === 'pickup' ? undefined : shipping, pickupDate: next === 'pickup' ? pickupDate : undefined, gift: undefined });
  };
  useEffect(() => revalidate(order), [deliveryDate]); // eslint-disable-line react-hooks/exhaustive-deps -- re-check only when the day changes

  if (loading) return <Spinner />;
  if (!items.length) {
    return (
      <section className="mx-auto grid max-w-xl justify-items-center gap-3 py-12 text-center">
        <h1 className="text-4xl font-semibold">Checkout</h1>
        <p className="text-xl font-semibold">Your cart is empty</p>
        <p className="text-ink-500">Add some mangoes to your cart, then come back here to check out.</p>
        <Link to="/shop" className="rounded-full bg-mango-500 px-6 py-2.5 font-semibold text-ink-900 hover:bg-mango-600">
          Browse the shop
        </Link>
      </section>
    );
  }

  const preOrders = priced?.lines.filter((line) => line.isPreOrder) ?? [];
  const cannotPay = Boolean(priced) && methods.length === 0;
  const sectionTitle = 'text-2xl font-semibold';
  return (
    <section className="mx-auto grid max-w-6xl gap-6">
      <h1 className="text-4xl font-semibold">Checkout</h1>
      <div className="grid items-start gap-8 lg:grid-cols-[minmax(0,1fr)_380px]">
        <div className="grid gap-8">
          <Panel title="Your mangoes" className="gap-2">
            <CartLines lines={items} />
          </Panel>
          <form id="checkout-form" onSubmit={handleSubmit(order)} noValidate className="grid gap-8">
            <Panel title={pickupOffered ? 'Delivery or pickup' : 'Delivery details'}>
              {pickupOffered && (
                <FulfilmentChoice value={fulfilment} onChange={changeFulfilment} address={pickupDates.data!.address} pickupBlocked={hasPreOrders} error={errors.fulfilment} />
              )}
              {pickup ? (
                <PickupDayPicker payment={payment} value={pickupDate} onChange={changePickupDate} error={errors.pickupDate} />
              ) : (
                <>
                  <p className="text-sm text-ink-500">We deliver across New Zealand, usually within 24-48 hours of dispatch.</p>
                  <GiftFields gift={gift} message={giftMessage} onGift={changeGift} onMessage={changeGiftMessage} error={errors['gift.message']} />
                  <ShippingFields value={shipping} onChange={changeShipping} errors={errors} gift={gift} ruralSurcharge={priced?.ruralSurcharge || dates?.ruralSurcharge} />
                </>
              )}
              {mixed && (
                <SendChoice
                  separately={sendSeparately}
                  onChange={(next) => {
                    setSendSeparately(next);
                    revalidate({ ...order, sendSeparately: next, deliveryDate: next ? deliveryDate : undefined });
                  }}
                  expected={latestExpected(priced!.lines)}
                />
              )}
              {!priced || pickup ? null : needsDate ? (
                <DeliveryDatePicker region={shipping.region} boxes={boxes} payment={payment} value={deliveryDate} onChange={changeDate} error={errors.deliveryDate} />
              ) : (
                <p className="rounded-lg bg-mango-50 px-3 py-2 text-sm">
                  Your order has pre-order boxes: we set its delivery day when they arrive, and e-mail you the date.
                </p>
              )}
            </Panel>
            <fieldset className="grid gap-3 rounded-2xl bg-white p-5 sm:p-6" data-field="paymentMethod" data-invalid={errors.paymentMethod ? 'true' : undefined}>
              <legend className={`${sectionTitle} float-left mb-1 w-full`}>Payment</legend>
              {cannotPay && (
                <p className="rounded-lg bg-mango-50 px-3 py-2 text-sm">
                  We cannot take payments online at the moment. Please contact us and we will arrange your order.
                </p>
              )}
              {methods.map((method) => (
                <label
                  key={method}
                  className={`flex cursor-pointer gap-3 rounded-xl border p-4 ${payment === method ? 'border-mango-600 bg-mango-50' : 'border-ink-500/30'}`}>
                  <input
                    type="radio"
                    name="payment"
                    value={method}
                    className="mt-1 size-4 accent-mango-600"
                    checked={payment === method}
                    onChange={() => setPaymentMethod(method)}
                  />
                  <span className="grid gap-1">
                    <span className="flex items-center gap-2 font-semibold">
                      {method === 'stripe' ? <CreditCard className="size-5" aria-hidden="true" /> : <Building2 className="size-5" aria-hidden="true" />}
                      {paymentMethodLabels[method]}
                    </span>
                    <span className="text-sm text-ink-500">{paymentHelp[method]}</span>
                  </span>
                </label>
              ))}
              {errors.paymentMethod && (
                <p role="alert" className="text-sm text-danger-600">
                  {errors.paymentMethod}
                </p>
              )}
            </fieldset>
          </form>
        </div>

        <aside aria-labelledby="checkout-summary" className="grid gap-4 rounded-2xl bg-white p-5 sm:p-6 lg:sticky lg:top-24">
          <h2 id="checkout-summary" className={sectionTitle}>
            Order summary
          </h2>
          <PromoField result={priced?.promo ?? null} pending={quote.isFetching} onApply={setPromoCode} error={errors.promoCode} />
          {priced ? <OrderTotals totals={{ ...priced, promoCode: priced.promo?.applied ? priced.promo.code : null, fulfilment }} /> : quote.isError ? null : <Spinner compact />}
          {quote.isError && (
            <p role="alert" className="text-sm text-danger-600">
              {quote.error instanceof ApiError ? (quote.error.body?.message ?? 'We could not price your cart.') : 'We could not price your cart.'}
            </p>
          )}
          {preOrders.map((line) => (
            <p key={line.id} className="rounded-lg bg-mango-50 px-3 py-2 text-sm">
              <span className="font-semibold">{line.name}</span> is a pre-order
              {line.expectedAvailabilityDate ? `: it ships after ${formatDate(line.expectedAvailabilityDate)}` : ''}
              {separately ? ', as its own order.' : '.'}
            </p>
          ))}
          <ErrorSummary errors={errors} />
          {problem && (
            <p role="alert" className="rounded-lg border border-danger-600/40 bg-white px-3 py-2 text-sm text-danger-600">
              {problem}
            </p>
          )}
          {waiting && (
            <p role="status" className="rounded-lg bg-mango-50 px-3 py-2 text-sm">
              Many people are ordering right now. We are keeping your place and trying again: please stay on this page.
            </p>
          )}
          <Button type="submit" form="checkout-form" className="w-full py-3 text-base" disabled={busy || !priced || quote.isFetching || cannotPay}>
            {busy ? (
              <>
                <span className="size-4 animate-spin rounded-full border-2 border-ink-900/30 border-t-ink-900" aria-hidden="true" /> Placing order...
              </>
            ) : (
              <>
                <Lock className="size-4" aria-hidden="true" /> Place order
              </>
            )}
          </Button>
          <p className="text-xs text-ink-500">Prices are in NZ dollars{settingsNow?.gstNumber ? ' and include GST' : ''}. Shipping is a flat rate anywhere in New Zealand; rural addresses add the courier’s rural delivery surcharge.</p>
        </aside>
      </div>
    </section>
  );
}

/** The last expected date among the cart's pre-orders: when a delivery of everything could go. */
function latestExpected(lines: ReadonlyArray<{ isPreOrder: boolean; expectedAvailabilityDate: string | null }>): string | null {
  const dates = lines.flatMap((line) => (line.isPreOrder && line.expectedAvailabilityDate ? [line.expectedAvailabilityDate] : []));
  return dates.length ? dates.sort().at(-1)! : null;
}
