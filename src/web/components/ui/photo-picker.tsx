import { Camera, X } from 'lucide-react';
import { useEffect, useMemo } from 'react';

/** The upload limit the server applies to each photo. */
const maxPhotoBytes = 5 * 1024 * 1024;
const photoTypes = ['image/jpeg', 'image/png', 'image/webp'];

/** A chosen photo and its preview, released when it is removed or the form closes. */
function usePreviews(photos: File[]): string[] {
  const urls = useMemo(() => photos.map((photo) => URL.createObjectURL(photo)), [photos]);
  useEffect(() => () => urls.forEach((url) => URL.revokeObjectURL(url)), [urls]);
  return urls;
}

/** What is wrong with adding `files` to `photos` (type, size, count), or undefined when nothing. */
export function photosProblem(chosen: File[], max: number): string | undefined {
  const wrong = chosen.find((file) => !photoTypes.includes(file.type));
  if (wrong) return `${wrong.name} is not a JPEG, PNG or WebP image`;
  const large = chosen.find((file) => file.size > maxPhotoBytes);
  if (large) return `${large.name} is larger than 5 MB`;
  return chosen.length > max ? `Add at most ${max} photos` : undefined;
}

/**
 * Photos chosen for a form (a claim, a review): previews with a remove button each, and a square to
 * add more while fewer than `max` are chosen. `onChosen` hears the new list, or the problem with it.
 */
export function PhotoPicker({ id, photos, max, error, onChosen }: { id: string; photos: File[]; max: number; error?: string; onChosen: (photos: File[], problem: string | undefined) => void }) {
  const previews = usePreviews(photos);
  return (
    <>
      <div className="flex flex-wrap items-center gap-2">
        {previews.map((url, index) => (
          <div key={url} className="relative">
            <img src={url} alt={`Chosen photo ${index + 1}`} className="size-20 rounded-lg object-cover ring-1 ring-ink-500/20" />
            <button
              type="button"
              aria-label={`Remove photo ${index + 1}`}
              className="absolute -right-2 -top-2 grid size-7 place-items-center rounded-full bg-ink-900 text-white"
              onClick={() => onChosen(photos.filter((_, at) => at !== index), undefined)}>
              <X className="size-4" aria-hidden="true" />
            </button>
          </div>
        ))}
        {photos.length < max && (
          <label className="grid size-20 cursor-pointer place-items-center rounded-lg border-2 border-dashed border-ink-500/40 text-ink-500 hover:border-mango-600 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-mango-500/40">
            <Camera className="size-6" aria-hidden="true" />
            <span className="sr-only">Add photos</span>
            <input
              id={id}
              type="file"
              accept={photoTypes.join(',')}
              multiple
              className="sr-only"
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(event) => {
                const chosen = [...photos, ...Array.from(event.target.files ?? [])];
                const problem = photosProblem(chosen, max);
                onChosen(problem ? photos : chosen, problem);
                event.target.value = '';
              }}
            />
          </label>
        )}
      </div>
      {error && (
        <p id={`${id}-error`} className="text-sm font-medium text-danger-600" role="alert">
          {error}
        </p>
      )}
    </>
  );
}
