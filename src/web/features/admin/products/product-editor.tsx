import { useQueryClient } from '../../../lib/query';
import { useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import type { AdminProductRow } from '../../../../contracts/admin-products';
import { instantOfNzWallTime, nzWallTime } from '../../../../contracts/dates';
import { preOrderProblem, type ProductFields, productFields, ripeningProblem } from '../../../../contracts/product';
import { clockInWords } from '../../../../contracts/ripeness';
import type { Treatment } from '../../../../contracts/origin';
import { OriginFields } from '../shared/origin-fields';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogTitle } from '../../../components/ui/dialog';
import { TextAreaField } from '../../../components/ui/text-area-field';
import { TextField } from '../../../components/ui/text-field';
import { toast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { ImageField } from '../shared/image-field';
import { createProduct, updateProduct } from './products-api';

/** What the editor holds: numbers stay as typed until the shared schema reads them. */
interface Draft {
  name: string;
  category: string;
  description: string;
  price: string;
  imageUrl: string;
  boxInfo: string;
  rating: string;
  stock: string;
  isBestseller: boolean;
  isOrganic: boolean;
  isLowStock: boolean;
  isPreOrder: boolean;
  expectedAvailabilityDate: string;
  preOrderLimit: string;
  /** New Zealand wall time, as the datetime-local field holds it; empty opens pre-orders now. */
  preOrdersOpenAt: string;
  ripeningDays: string;
  daysAtBest: string;
  /** ISO 3166-1 alpha-2, or empty while not chosen. */
  originCountry: string;
  treatment: Treatment | '';
  subscribable: boolean;
  subscriberDiscountPercent: string;
  seasonEndsOn: string;
  isHidden: boolean;
}

const blank: Draft = {
  name: '',
  category: '',
  description: '',
  price: '',
  imageUrl: '',
  boxInfo: '9 to 12 Mangoes per Box',
  rating: '0',
  stock: '0',
  isBestseller: false,
  isOrganic: false,
  isLowStock: false,
  isPreOrder: false,
  expectedAvailabilityDate: '',
  preOrderLimit: '',
  preOrdersOpenAt: '',
  ripeningDays: '',
  daysAtBest: '',
  originCountry: '',
  treatment: '',
  subscribable: false,
  subscriberDiscountPercent: '0',
  seasonEndsOn: '',
  isHidden: false,
};

function draftOf(product: AdminProductRow): Draft {
  return {
    name: product.name,
    category: product.category,
    description: product.description,
    imageUrl: product.imageUrl,
    isBestseller: product.isBestseller,
    isOrganic: product.isOrganic,
    isLowStock: product.alwaysLowStock,
    isPreOrder: product.isPreOrder,
    isHidden: product.isHidden,
    price: product.price.toFixed(2),
    rating: String(product.rating),
    stock: String(product.stock),
    boxInfo: product.boxInfo ?? '',
    expectedAvailabilityDate: product.expectedAvailabilityDate ?? '',
    preOrderLimit: product.preOrderLimit === null ? '' : String(product.preOrderLimit),
    preOrdersOpenAt: product.preOrdersOpenAt ? nzWallTime(product.preOrdersOpenAt) : '',
    ripeningDays: product.ripeningDays === null ? '' : String(product.ripeningDays),
    daysAtBest: product.daysAtBest === null ? '' : String(product.daysAtBest),
    originCountry: product.originSetting.country ?? '',
    treatment: product.originSetting.treatment ?? '',
    subscribable: product.subscribable,
    subscriberDiscountPercent: String(product.subscriberDiscountPercent),
    seasonEndsOn: product.seasonEndsOn ?? '',
  };
}

function withUsualOrigin(draft: Draft, usual: { country: string; treatment: Treatment } | null): Draft {
  if (!usual) return draft;
  return { ...draft, originCountry: draft.originCountry || usual.country, treatment: draft.treatment || usual.treatment };
}

/** What the two ripening numbers will do, in the owner's words. */
function ripeningHint(draft: Draft): string {
  const ripeningDays = Number(draft.ripeningDays);
  const daysAtBest = Number(draft.daysAtBest);
  if (draft.ripeningDays.trim() === '' && draft.daysAtBest.trim() === '') {
    return 'Empty: the shop says nothing of ripeness. Set both to show shoppers when their boxes will be ready to eat, put a ripening guide in the shipping e-mail and remind them on the first ready day.';
  }
  if (!Number.isInteger(ripeningDays) || !Number.isInteger(daysAtBest) || ripeningDays < 0 || daysAtBest < 1 || draft.ripeningDays.trim() === '' || draft.daysAtBest.trim() === '') {
    return 'Set both numbers: days from harvest until ready to eat, and days at its best.';
  }
  return `This variety is ${clockInWords({ ripeningDays, daysAtBest })}, counted from each batch's harvest date.`;
}

/** A number box as typed: empty or not a number is NaN, which the schema answers with its own message. */
const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

/** The draft as the API's product fields: the same shared schema checks it here and on the server. */
function fieldsOf(draft: Draft) {
  return {
    ...draft,
    price: numberOf(draft.price),
    rating: draft.rating.trim() === '' ? 0 : numberOf(draft.rating),
    stock: numberOf(draft.stock),
    boxInfo: draft.boxInfo.trim() || null,
    expectedAvailabilityDate: draft.expectedAvailabilityDate || null,
    preOrderLimit: draft.preOrderLimit.trim() === '' ? null : numberOf(draft.preOrderLimit),
    ripeningDays: draft.ripeningDays.trim() === '' ? null : numberOf(draft.ripeningDays),
    daysAtBest: draft.daysAtBest.trim() === '' ? null : numberOf(draft.daysAtBest),
    originCountry: draft.originCountry || null,
    treatment: draft.treatment || null,
    subscriberDiscountPercent: draft.subscriberDiscountPercent.trim() === '' ? 0 : numberOf(draft.subscriberDiscountPercent),
    seasonEndsOn: draft.seasonEndsOn || null,
    // Only a pre-order opens at a time; a time the field cannot hold goes as typed, for the schema's message.
    preOrdersOpenAt: draft.isPreOrder && draft.preOrdersOpenAt ? (instantOfNzWallTime(draft.preOrdersOpenAt) ?? draft.preOrdersOpenAt) : null,
  };
}

/**
 * An edit sends only what the owner changed: a field left alone (stock above all, which orders
 * change meanwhile) is never written back with the number the editor opened with.
 */
function changedFields(fields: ProductFields, opened: Record<string, unknown>): Partial<ProductFields> {
  const changed = Object.entries(fields).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(opened[key]));
  return Object.fromEntries(changed) as Partial<ProductFields>;
}

/** The shop's own spelling of `typed` when it names a category it has, whatever the case. */
function knownCategory(categories: string[], typed: string): string | undefined {
  const wanted = typed.trim().toLowerCase();
  return categories.find((category) => category.toLowerCase() === wanted);
}

/**
 * The shared checks, and one of the editor's own: a category the shop has not got yet is added
 * only on purpose (a typo would otherwise file a box under a category of one).
 */
function editorSchemaFor(categories: string[], newCategoryWanted: string | null, originRequired = true) {
  return productFields.superRefine((fields, context) => {
    const problem = preOrderProblem(fields);
    if (problem) context.addIssue({ code: 'custom', path: ['expectedAvailabilityDate'], message: problem });
    // The law asks every offer of fresh fruit to say where it was grown: saved, a product has both.
    if (originRequired && !fields.originCountry) context.addIssue({ code: 'custom', path: ['originCountry'], message: 'Choose the country its fruit is grown in' });
    if (originRequired && !fields.treatment) context.addIssue({ code: 'custom', path: ['treatment'], message: 'Choose how its fruit is treated after harvest' });
    const ripening = ripeningProblem(fields);
    if (ripening) context.addIssue({ code: 'custom', path: [ripening.field], message: ripening.message });
    const typed = fields.category.trim();
    if (typed && categories.length > 0 && !knownCategory(categories, typed) && newCategoryWanted !== typed) {
      context.addIssue({ code: 'custom', path: ['category'], message: `Choose one of your categories, or tick the box to add “${typed}” as a new one` });
    }
  });
}

interface ProductEditorProps {
  /** The product to edit, or null to add a new one. */
  product: AdminProductRow | null;
  categories: string[];
  /** What most products say of origin and treatment: a new product starts from it. */
  usualOrigin?: { country: string; treatment: Treatment } | null;
  onClose: () => void;
}

/** Every product field, checked by the shared product schema before it is sent. */
export function ProductEditor({ product, categories, usualOrigin = null, onClose }: ProductEditorProps) {
  const queryClient = useQueryClient();
  const listId = useId();
  // The new category the owner ticked, by its name: typing another name asks again.
  const [newCategoryWanted, setNewCategoryWanted] = useState<string | null>(null);
  // A new product, or one that has an origin, must say it; one from before origins were kept may be
  // saved without it still (the dashboard lists it until it says).
  const originRequired = !product || (product.originSetting.country !== null && product.originSetting.treatment !== null);
  const editorSchema = useMemo(() => editorSchemaFor(categories, newCategoryWanted, originRequired), [categories, newCategoryWanted, originRequired]);
  // A product without an origin yet (new, or from before origins were kept) starts from the shop's
  // usual one, shown for the owner to confirm or change: saved, every product has one.
  const [opened] = useState<Draft>(() => withUsualOrigin(product ? draftOf(product) : blank, usualOrigin));
  const [draft, setDraft] = useState<Draft>(opened);
  const [leaving, setLeaving] = useState(false);
  // Escape, the backdrop, the close button and Cancel all ask first when something was typed.
  const close = () => (JSON.stringify(draft) === JSON.stringify(opened) ? onClose() : setLeaving(true));
  const { errors, busy, handleSubmit, revalidate } = useSchemaForm(editorSchema, {
    async send(fields) {
      const changes = product ? changedFields(fields, fieldsOf(draftOf(product))) : fields;
      if (product && Object.keys(changes).length === 0) return onClose();
      const saved = product ? await updateProduct(product.id, changes) : await createProduct(fields);
      // Spec 7: after each product change the product list and the admin list are fetched again.
      await queryClient.invalidateQueries({ queryKey: ['products'] });
      await queryClient.invalidateQueries({ queryKey: ['admin'] });
      toast({ title: product ? 'Product saved' : 'Product added', description: saved.name });
      onClose();
    },
    onError(error) {
      toast({ title: 'The product was not saved', description: error instanceof ApiError ? error.body?.message : undefined, variant: 'destructive' });
    },
  });

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    const next = { ...draft, [key]: value };
    setDraft(next);
    revalidate(fieldsOf(next));
  };
  const text = (key: { [K in keyof Draft]: Draft[K] extends string ? K : never }[keyof Draft]) => ({
    value: draft[key],
    onChange: (event: { target: { value: string } }) => set(key, event.target.value),
    error: errors[key],
  });
  const flag = (key: 'isBestseller' | 'isOrganic' | 'isLowStock' | 'isPreOrder' | 'isHidden' | 'subscribable', label: string) => (
    <label className="flex items-center gap-2 text-sm">
      <input type="checkbox" className="size-4 accent-mango-600" checked={draft[key]} onChange={(event) => set(key, event.target.checked)} />
      {label}
    </label>
  );

  const title = product ? `Edit ${product.name}` : 'New product';
  return (
    <Dialog open onOpenChange={(open) => !open && close()} title={title} titled wide>
      <form onSubmit={handleSubmit(fieldsOf({ ...draft, category: knownCategory(categories, draft.category) ?? draft.category }))} noValidate className="grid gap-4">
        <DialogTitle className="pr-8 text-2xl font-semibold">{title}</DialogTitle>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Name" maxLength={120} required {...text('name')} />
          <TextField label="Category" maxLength={60} list={listId} required {...text('category')} />
          <datalist id={listId}>
            {categories.map((category) => (
              <option key={category} value={category} />
            ))}
          </datalist>
          {categories.length > 0 && draft.category.trim() !== '' && !knownCategory(categories, draft.category) && (
            <label className="flex items-center gap-2 text-sm sm:col-start-2">
              <input
                type="checkbox"
                className="size-4 accent-mango-600"
                checked={newCategoryWanted === draft.category.trim()}
                onChange={(event) => {
                  const wanted = event.target.checked ? draft.category.trim() : null;
                  setNewCategoryWanted(wanted);
                  revalidate(fieldsOf(draft), editorSchemaFor(categories, wanted, originRequired));
                }}
              />
              Add “{draft.category.trim()}” as a new one (yours now: {categories.join(', ')})
            </label>
          )}
        </div>
        <TextAreaField label="Description" rows={4} maxLength={4000} required {...text('description')} />
        <ImageField label="Image" value={draft.imageUrl} onChange={(url) => set('imageUrl', url)} error={errors.imageUrl} />
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField label="Price (NZD, GST included)" inputMode="decimal" required {...text('price')} />
          <TextField label="Box info" maxLength={100} {...text('boxInfo')} />
          <TextField label="Rating (0 to 5)" inputMode="decimal" {...text('rating')} />
        </div>
        <fieldset className="grid gap-3 rounded-xl border border-ink-500/20 p-4">
          <legend className="px-1 text-sm font-semibold">Stock and pre-orders</legend>
          {product ? (
            <p className="text-sm">
              {product.isPreOrder ? `Pre-orders take no stock: shipments are recorded under Pre-orders (${product.stock} boxes left from them).` : `In stock: ${product.stock} boxes.`} Deliveries, spoilage and corrections are recorded on the{' '}
              <Link to="/admin/inventory" className="font-semibold text-mango-700 hover:underline">
                Inventory
              </Link>{' '}
              screen, so every number is explained.
            </p>
          ) : (
            <TextField label="Opening stock" inputMode="numeric" {...text('stock')} />
          )}
          {flag('isPreOrder', 'Sold as a pre-order')}
          {draft.isPreOrder && (
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField label="Expected availability" type="date" {...text('expectedAvailabilityDate')} />
              <TextField label="Pre-order limit in boxes (empty for none)" inputMode="numeric" {...text('preOrderLimit')} />
              <div className="grid gap-1 sm:col-span-2">
                <TextField label="Pre-orders open (New Zealand time)" type="datetime-local" {...text('preOrdersOpenAt')} />
                <p className="text-sm text-ink-500">
                  {draft.preOrdersOpenAt ? (
                    <>
                      Until then shoppers see a countdown and can join the waitlist; when you change the time, everyone on it is e-mailed the new one.{' '}
                      <button type="button" className="font-semibold text-mango-700 hover:underline" onClick={() => set('preOrdersOpenAt', '')}>
                        Open pre-orders now instead
                      </button>
                    </>
                  ) : (
                    'Empty: pre-orders are open as soon as you save. Set a time to open them at an announced moment.'
                  )}
                </p>
              </div>
            </div>
          )}
        </fieldset>
        <fieldset className="grid gap-3 rounded-xl border border-ink-500/20 p-4">
          <legend className="px-1 text-sm font-semibold">Origin and treatment</legend>
          <OriginFields
            values={draft}
            errors={errors}
            onChange={(next) => {
              const changed = { ...draft, ...next };
              setDraft(changed);
              revalidate(fieldsOf(changed));
            }}
            placeholders={{ country: 'Choose a country', treatment: 'Choose a treatment' }}
          />
          <p className="text-sm text-ink-500">Shown on every offer, as New Zealand law asks; a pre-order's coming shipment, and stock recorded without its own, are said to be this.</p>
        </fieldset>
        <fieldset className="grid gap-3 rounded-xl border border-ink-500/20 p-4">
          <legend className="px-1 text-sm font-semibold">Ripening</legend>
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField label="Days from harvest until ready to eat" inputMode="numeric" {...text('ripeningDays')} />
            <TextField label="Days it stays at its best" inputMode="numeric" {...text('daysAtBest')} />
          </div>
          <p className="text-sm text-ink-500">{ripeningHint(draft)}</p>
        </fieldset>
        <fieldset className="grid gap-3 rounded-xl border border-ink-500/20 p-4">
          <legend className="px-1 text-sm font-semibold">Season box</legend>
          {flag('subscribable', 'Offer as a season box (every week or fortnight)')}
          {draft.subscribable && (
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField label="Subscriber discount (%)" inputMode="numeric" {...text('subscriberDiscountPercent')} />
              <TextField label="Season ends on" type="date" {...text('seasonEndsOn')} />
            </div>
          )}
          <p className="text-sm text-ink-500">Subscribers get a box on their delivery day until they cancel or the season ends; the last box is the last delivery on or before the season's end.</p>
        </fieldset>
        <fieldset className="grid gap-2 sm:grid-cols-2">
          <legend className="mb-2 text-sm font-semibold">Badges and visibility</legend>
          {flag('isBestseller', 'Bestseller badge')}
          {flag('isOrganic', 'Organic badge')}
          {flag('isLowStock', 'Always show Low Stock')}
          {flag('isHidden', 'Hidden from the shop')}
        </fieldset>
        {errors.form && (
          <p role="alert" className="text-sm text-danger-600">
            {errors.form}
          </p>
        )}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={close} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Saving…' : product ? 'Save product' : 'Add product'}
          </Button>
        </div>
      </form>
      <ConfirmDialog
        open={leaving}
        title="Leave without saving?"
        description="Your changes to this product are not saved and will be lost."
        confirmLabel="Leave without saving"
        cancelLabel="Keep editing"
        onConfirm={onClose}
        onCancel={() => setLeaving(false)}
      />
    </Dialog>
  );
}
