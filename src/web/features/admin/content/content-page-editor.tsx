import { useQuery, useQueryClient } from '../../../lib/query';
import { useMutation } from '../../../lib/query/mutation';
import { ArrowLeft } from 'lucide-react';
import { type FormEvent, type MouseEvent, useState } from 'react';
import { type AdminPage, createPageSchema, updatePageSchema } from '../../../../contracts/content-admin';
import { Spinner } from '../../../components/ui/spinner';
import { TextAreaField } from '../../../components/ui/text-area-field';
import { TextField } from '../../../components/ui/text-field';
import { toast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { type FieldErrors, fieldErrorsOf } from '../../../lib/form-errors';
import { Markdown } from '../../content/markdown';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { FormFooter } from '../shared/form-footer';
import { createPage, fetchStaffPage, refreshPages, staffPageKey, updatePage } from './content-admin-api';

const markdownHint = 'Markdown: ## Heading, **bold**, *italic*, - list item, [link text](/shop). HTML is shown as plain text.';

/** Writes a new page (slug null) or edits one, with the storefront's own renderer as a live preview. */
export function ContentPageEditor({ slug, onClose }: { slug: string | null; onClose: (savedSlug?: string) => void }) {
  const query = useQuery({ queryKey: staffPageKey(slug ?? ''), queryFn: ({ signal }) => fetchStaffPage(slug!, signal), enabled: slug !== null, retry: false });
  if (slug === null) return <PageForm page={null} onClose={onClose} />;
  if (query.isPending) return <Spinner />;
  if (!query.data) {
    return (
      <section className="grid gap-3">
        <BackLink onClick={() => onClose()} />
        <h1 className="text-3xl font-semibold">Page not found</h1>
        <p className="text-ink-500">There is no page at /content/{slug}.</p>
      </section>
    );
  }
  return <PageForm page={query.data} onClose={onClose} />;
}

function BackLink({ onClick }: { onClick: () => void }) {
  return (
    <button type="button" onClick={onClick} className="inline-flex items-center gap-1 justify-self-start font-semibold text-mango-700 hover:underline">
      <ArrowLeft className="size-4" aria-hidden="true" /> All content
    </button>
  );
}

function PageForm({ page, onClose }: { page: AdminPage | null; onClose: (savedSlug?: string) => void }) {
  const queryClient = useQueryClient();
  const [slug, setSlug] = useState(page?.slug ?? '');
  const [title, setTitle] = useState(page?.title ?? '');
  const [body, setBody] = useState(page?.body ?? '');
  const [saved, setSaved] = useState({ title: page?.title ?? '', body: page?.body ?? '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [leaving, setLeaving] = useState(false);
  const isDirty = title !== saved.title || body !== saved.body || (!page && slug !== '');
  const save = useMutation({
    mutationFn: (send: () => Promise<AdminPage>) => send(),
    onSuccess(next) {
      setErrors({});
      setSaved({ title: next.title, body: next.body });
      queryClient.setQueryData(staffPageKey(next.slug), next);
      refreshPages(queryClient, next.slug);
      toast({ title: page ? 'Page saved' : 'Page created', description: `The shop shows it at /content/${next.slug}.` });
      if (!page) onClose(next.slug);
    },
    onError(error) {
      const answer = error instanceof ApiError ? error.body : null;
      if (answer?.fieldErrors) setErrors(answer.fieldErrors);
      toast({ title: 'The page was not saved', description: answer?.message, variant: 'destructive' });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (page) {
      const parsed = updatePageSchema.safeParse({ title, body });
      if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
      save.mutate(() => updatePage(page.slug, parsed.data));
    } else {
      const parsed = createPageSchema.safeParse({ slug, title, body });
      if (!parsed.success) return setErrors(fieldErrorsOf(parsed.error));
      save.mutate(() => createPage(parsed.data));
    }
  };
  const leave = () => (isDirty ? setLeaving(true) : onClose());
  // Links in the preview show where they go but do not leave the editor.
  const stayInEditor = (event: MouseEvent) => {
    if ((event.target as HTMLElement).closest('a')) event.preventDefault();
  };
  return (
    <section className="grid grid-cols-1 gap-4">
      <BackLink onClick={leave} />
      <h1 className="text-4xl font-semibold">{page ? `Edit ${page.title}` : 'New page'}</h1>
      <form onSubmit={submit} noValidate className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <div className="grid content-start gap-4 rounded-2xl bg-white p-5">
          {page ? (
            <p className="text-sm text-ink-500">
              Address: <span className="font-medium text-ink-900">/content/{page.slug}</span>
            </p>
          ) : (
            <TextField label="Address (after /content/)" placeholder="mango-recipes" maxLength={80} value={slug} onChange={(event) => setSlug(event.target.value.toLowerCase())} error={errors.slug} />
          )}
          <TextField label="Title" maxLength={120} value={title} onChange={(event) => setTitle(event.target.value)} error={errors.title} />
          <TextAreaField label="Page text" hint={markdownHint} rows={18} maxLength={20_000} value={body} onChange={(event) => setBody(event.target.value)} error={errors.body} className="[&_textarea]:font-mono [&_textarea]:text-sm" />
          <FormFooter busy={save.isPending} submitLabel={page ? 'Save page' : 'Create page'} onBack={leave} />
        </div>
        <section aria-labelledby="page-preview" className="grid content-start gap-3 rounded-2xl border border-dashed border-ink-500/40 bg-cream-50 p-5">
          <h2 id="page-preview" className="text-sm font-semibold uppercase tracking-wide text-ink-500">
            Preview
          </h2>
          <div className="min-w-0 space-y-6 break-words" onClickCapture={stayInEditor}>
            <p className="font-serif text-4xl font-semibold">{title || 'Untitled page'}</p>
            <Markdown source={body} />
          </div>
        </section>
      </form>
      <ConfirmDialog
        open={leaving}
        title="Leave without saving?"
        description="Your changes to this page are not saved and will be lost."
        confirmLabel="Discard changes"
        onConfirm={() => onClose()}
        onCancel={() => setLeaving(false)}
      />
    </section>
  );
}
