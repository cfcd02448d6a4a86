import { ImageUp, LoaderCircle } from 'lucide-react';
import { type ChangeEvent, useId, useState } from 'react';
import { isImageUrl } from '../../../../contracts/text';
import { ApiError, apiRequest } from '../../../lib/api-client';

const accepted = 'image/jpeg,image/png,image/webp';
const maxBytes = 5 * 1024 * 1024;

export const uploadImage = (file: File) => {
  const form = new FormData();
  form.append('file', file);
  return apiRequest<{ url: string }>('/api/admin/uploads', { method: 'POST', body: form });
};

interface ImageFieldProps {
  label: string;
  value: string;
  onChange: (url: string) => void;
  error?: string;
}

/**
 * A picture for a product, banner or testimonial: a preview, a file picker that uploads at once
 * (JPEG, PNG or WebP up to 5 MB; the server checks again), and the image's address, which may
 * also be typed.
 */
export function ImageField({ label, value, onChange, error }: ImageFieldProps) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [uploadError, setUploadError] = useState<string>();
  const shown = uploadError ?? error;

  async function pick(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setUploadError(undefined);
    if (file.size > maxBytes) {
      setUploadError('The image is larger than 5 MB');
      return;
    }
    setBusy(true);
    try {
      onChange((await uploadImage(file)).url);
    } catch (caught) {
      setUploadError((caught instanceof ApiError && caught.body?.fieldErrors?.file) || 'The image could not be uploaded. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <fieldset className="grid gap-2" aria-describedby={shown ? `${id}-error` : undefined}>
      <legend className="mb-1.5 text-sm font-medium">{label}</legend>
      <div className="flex flex-wrap items-center gap-3">
        <div className="grid size-20 shrink-0 place-items-center overflow-hidden rounded-lg border border-ink-500/30 bg-mango-50">
          {isImageUrl(value) ? <img src={value} alt="" className="size-full object-cover" /> : <ImageUp className="size-6 text-ink-500" aria-hidden="true" />}
        </div>
        <label className="inline-flex cursor-pointer items-center gap-2 rounded-full border border-ink-900 bg-white px-4 py-2 text-sm font-semibold hover:bg-mango-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-mango-500">
          {busy ? <LoaderCircle className="size-4 animate-spin" aria-hidden="true" /> : <ImageUp className="size-4" aria-hidden="true" />}
          {busy ? 'Uploading…' : 'Upload image'}
          <input type="file" accept={accepted} className="sr-only" onChange={pick} disabled={busy} aria-label={`${label}: upload a JPEG, PNG or WebP file`} />
        </label>
        <span className="text-xs text-ink-500">JPEG, PNG or WebP, up to 5 MB</span>
      </div>
      <label htmlFor={`${id}-url`} className="sr-only">
        {label} address
      </label>
      <input
        id={`${id}-url`}
        value={value}
        onChange={(event) => {
          setUploadError(undefined);
          onChange(event.target.value);
        }}
        placeholder="/uploads/… or /images/…"
        aria-invalid={shown ? true : undefined}
        aria-describedby={shown ? `${id}-error` : undefined}
        className={`w-full rounded-lg border bg-white px-3 py-2 text-sm outline-none focus:border-mango-600 focus:ring-2 focus:ring-mango-500/40 ${shown ? 'border-danger-600' : 'border-ink-500/30'}`}
      />
      {shown && (
        <p id={`${id}-error`} role="alert" className="text-sm text-danger-600">
          {shown}
        </p>
      )}
    </fieldset>
  );
}
