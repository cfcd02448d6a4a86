import { useQueryClient } from '../../../lib/query';
import { useState } from 'react';
import { type AdminBanner, createBannerSchema } from '../../../../contracts/content-admin';
import { DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/text-field';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { FormFooter, ShowOnStorefront } from '../shared/form-footer';
import { ImageField } from '../shared/image-field';
import { createBanner, refreshBanners, updateBanner } from './content-admin-api';

/** Adds a farm-gallery banner (at the end) or edits one's picture and title. */
export function BannerForm({ editing, onDone }: { editing: AdminBanner | null; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [imageUrl, setImageUrl] = useState(editing?.imageUrl ?? '');
  const [title, setTitle] = useState(editing?.title ?? '');
  const [isActive, setIsActive] = useState(editing?.isActive ?? true);
  const { errors, busy, handleSubmit } = useSchemaForm(createBannerSchema, {
    async send(input) {
      const saved = editing ? await updateBanner(editing.id, { imageUrl: input.imageUrl, title: input.title }) : await createBanner(input);
      refreshBanners(queryClient);
      toast({ title: editing ? 'Banner saved' : 'Banner added', description: saved.title });
      onDone();
    },
    onError: (error) => toast({ title: 'The banner was not saved', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });
  return (
    <form onSubmit={handleSubmit({ imageUrl, title, isActive })} noValidate className="grid gap-4">
      <DialogTitle className="pr-8 text-2xl font-semibold">{editing ? 'Edit banner' : 'New banner'}</DialogTitle>
      <DialogDescription className="text-ink-500">A picture with a caption in the farm gallery on the home page. Wide pictures (4:3) look best.</DialogDescription>
      <ImageField label="Picture" value={imageUrl} onChange={setImageUrl} error={errors.imageUrl} />
      <TextField label="Title" placeholder="Hand-Picked at Peak Maturity" maxLength={120} value={title} onChange={(event) => setTitle(event.target.value)} error={errors.title} />
      {!editing && <ShowOnStorefront checked={isActive} onChange={setIsActive} />}
      <FormFooter busy={busy} submitLabel={editing ? 'Save banner' : 'Add banner'} onBack={onDone} />
    </form>
  );
}
