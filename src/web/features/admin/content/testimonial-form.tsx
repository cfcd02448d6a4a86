import { useQueryClient } from '../../../lib/query';
import { useState } from 'react';
import { type AdminTestimonial, createTestimonialSchema } from '../../../../contracts/content-admin';
import { DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import { SelectField } from '../../../components/ui/select-field';
import { TextAreaField } from '../../../components/ui/text-area-field';
import { TextField } from '../../../components/ui/text-field';
import { toast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { FormFooter, ShowOnStorefront } from '../shared/form-footer';
import { ImageField } from '../shared/image-field';
import { createTestimonial, refreshTestimonials, updateTestimonial } from './content-admin-api';

/** Spec 3: half steps up to 5, best first. */
const ratingChoices = ['5', '4.5', '4', '3.5', '3', '2.5', '2', '1.5', '1', '0.5'] as const;

/** Creates a testimonial (shown at the end of the list) or edits one; `isVisible` is set from the list. */
export function TestimonialForm({ editing, onDone }: { editing: AdminTestimonial | null; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [content, setContent] = useState(editing?.content ?? '');
  const [author, setAuthor] = useState(editing?.author ?? '');
  const [rating, setRating] = useState(String(editing?.rating ?? 5));
  const [imageUrl, setImageUrl] = useState(editing?.imageUrl ?? '');
  const [isVisible, setIsVisible] = useState(editing?.isVisible ?? true);
  const { errors, busy, handleSubmit } = useSchemaForm(createTestimonialSchema, {
    async send(input) {
      const { isVisible: _setFromTheList, ...fields } = input;
      const saved = editing ? await updateTestimonial(editing.id, fields) : await createTestimonial(input);
      refreshTestimonials(queryClient);
      toast({ title: editing ? 'Testimonial saved' : 'Testimonial added', description: `From ${saved.author}.` });
      onDone();
    },
    onError: (error) => toast({ title: 'The testimonial was not saved', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });
  return (
    <form onSubmit={handleSubmit({ content, author, rating: Number(rating), imageUrl, isVisible })} noValidate className="grid gap-4">
      <DialogTitle className="pr-8 text-2xl font-semibold">{editing ? 'Edit testimonial' : 'New testimonial'}</DialogTitle>
      <DialogDescription className="text-ink-500">Shown in the 'What Our Customers Say' carousel on the home page.</DialogDescription>
      <TextAreaField label="What the customer said" rows={5} maxLength={1000} value={content} onChange={(event) => setContent(event.target.value)} error={errors.content} />
      <TextField label="Author (name and town)" placeholder="Priya S., Auckland" maxLength={80} value={author} onChange={(event) => setAuthor(event.target.value)} error={errors.author} />
      <SelectField label="Rating out of 5" options={ratingChoices} value={rating} onChange={(event) => setRating(event.target.value)} error={errors.rating} />
      <ImageField label="Photo (optional)" value={imageUrl} onChange={setImageUrl} error={errors.imageUrl} />
      {!editing && <ShowOnStorefront checked={isVisible} onChange={setIsVisible} />}
      <FormFooter busy={busy} submitLabel={editing ? 'Save testimonial' : 'Add testimonial'} onBack={onDone} />
    </form>
  );
}
