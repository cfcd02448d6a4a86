import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type AdminBanner, type BannerInput, createBannerSchema } from '../../../contracts/content-admin';
import { Button } from '../../components/ui/button';
import { DialogDescription, DialogTitle } from '../../components/ui/dialog';
import { TextField } from '../../components/ui/text-field';
import { toast } from '../../components/ui/toast';
import { ApiError } from '../../lib/api-client';
import { type FieldErrors, fieldErrorsOf } from '../../lib/form-errors';
import { createBanner, refreshBanners, updateBanner } from './content-admin-api';
import { ImageField } from './image-field';

/** Adds a farm-gallery banner (at the end) or edits one's picture and title. */
export function BannerForm({ editing, onDone }: { editing: AdminBanner | null; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [imageUrl, setImageUrl] = useState(editing?.imageUrl ?? '');
  const [title, setTitle] = useState(editing?.title ?? '');
  const [isActive, setIsActive] = useState(editing?.isActive ?? true);
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: (input: BannerInput) => (editing ? updateBanner(editing.id, { imageUrl: input.imageUrl, title: input.title }) : createBanner(input)),
    onSuccess(saved) {
      refreshBanners(queryClient);
      toast({ title: editing ? 'Banner saved' : 'Banner added', description: saved.title });
      onDone();
    },
    onError(error) {
      const body = error instanceof ApiError ? error.body : null;
      if (body?.fieldErrors) setErrors(body.fieldErrors);
      toast({ title: 'The banner was not saved', description: body?.message, variant: 'destructive' });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createBannerSchema.safeParse({ imageUrl, title, isActive });
    if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
    setErrors({});
    save.mutate(parsed.data);
  };
  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <DialogTitle className="pr-8 text-2xl font-semibold">{editing ? 'Edit banner' : 'New banner'}</DialogTitle>
      <DialogDescription className="text-ink-500">A picture with a caption in the farm gallery on the home page. Wide pictures (4:3) look best.</DialogDescription>
      <ImageField label="Picture" value={imageUrl} onChange={setImageUrl} error={errors.imageUrl} />
      <TextField label="Title" placeholder="Hand-Picked at Peak Maturity" maxLength={120} value={title} onChange={(event) => setTitle(event.target.value)} error={errors.title} />
      {!editing && (
        <label className="flex items-center gap-2 text-sm font-medium">
          <input type="checkbox" className="size-4 accent-mango-600" checked={isActive} onChange={(event) => setIsActive(event.target.checked)} />
          Show on the storefront
        </label>
      )}
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="outline" onClick={onDone}>
          Back
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : editing ? 'Save banner' : 'Add banner'}
        </Button>
      </div>
    </form>
  );
}
