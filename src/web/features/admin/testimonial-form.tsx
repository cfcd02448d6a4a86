import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type AdminTestimonial, createTestimonialSchema, type TestimonialInput } from '../../../contracts/content-admin';
import { Button } from '../../components/ui/button';
import { DialogDescription, DialogTitle } from '../../components/ui/dialog';
import { SelectField } from '../../components/ui/select-field';
import { TextField } from '../../components/ui/text-field';
import { toast } from '../../components/ui/toast';
import { ApiError } from '../../lib/api-client';
import { type FieldErrors, fieldErrorsOf } from '../../lib/form-errors';
import { createTestimonial, refreshTestimonials, updateTestimonial } from './content-admin-api';
import { TextAreaField } from '../../components/ui/text-area-field';
import { ImageField } from './image-field';

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
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: (input: TestimonialInput) => {
      if (!editing) return createTestimonial(input);
      const { isVisible: _unchanged, ...fields } = input;
      return updateTestimonial(editing.id, fields);
    },
    onSuccess(saved) {
      refreshTestimonials(queryClient);
      toast({ title: editing ? 'Testimonial saved' : 'Testimonial added', description: `From ${saved.author}.` });
      onDone();
    },
    onError(error) {
      const body = error instanceof ApiError ? error.body : null;
      if (body?.fieldErrors) setErrors(body.fieldErrors);
      toast({ title: 'The testimonial was not saved', description: body?.message, variant: 'destructive' });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createTestimonialSchema.safeParse({ content, author, rating: Number(rating), imageUrl, isVisible });
    if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
    setErrors({});
    save.mutate(parsed.data);
  };
  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <DialogTitle className="pr-8 text-2xl font-semibold">{editing ? 'Edit testimonial' : 'New testimonial'}</DialogTitle>
      <DialogDescription className="text-ink-500">Shown in the 'What Our Customers Say' carousel on the home page.</DialogDescription>
      <TextAreaField label="What the customer said" rows={5} maxLength={1000} value={content} onChange={(event) => setContent(event.target.value)} error={errors.content} />
      <TextField label="Author (name and town)" placeholder="Priya S., Auckland" maxLength={80} value={author} onChange={(event) => setAuthor(event.target.value)} error={errors.author} />
      <SelectField label="Rating out of 5" options={ratingChoices} value={rating} onChange={(event) => setRating(event.target.value)} error={errors.rating} />
      <ImageField label="Photo (optional)" value={imageUrl} onChange={setImageUrl} error={errors.imageUrl} />
      {!editing && (
        <label className="flex items-center gap-2 text-sm font-medium">
          <input type="checkbox" className="size-4 accent-mango-600" checked={isVisible} onChange={(event) => setIsVisible(event.target.checked)} />
          Show on the storefront
        </label>
      )}
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="outline" onClick={onDone}>
          Back
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : editing ? 'Save testimonial' : 'Add testimonial'}
        </Button>
      </div>
    </form>
  );
}
