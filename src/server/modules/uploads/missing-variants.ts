import { ServiceUnavailable } from '../../lib/errors';
import type { ImageExtension } from './images';
import { processPicture } from './picture-processing';
import type { ImageStore } from './service';

const namesPerRound = 20;

/**
 * Decision 0012: pictures stored before variants existed, or imported from an old data folder, get
 * them in the background after start, one at a time, so start-up stays fast and uploads keep
 * their turn. Until then the API reports them without sizes and the web app shows the original.
 * Stops after the picture in hand when `signal` aborts. Answers how many pictures got variants.
 */
export async function makeMissingVariants(store: ImageStore, signal: AbortSignal): Promise<number> {
  let made = 0;
  const tried = new Set<string>();
  while (!signal.aborted) {
    const names = (await store.withoutVariants(namesPerRound)).filter((name) => !tried.has(name));
    if (!names.length) break;
    for (const name of names) {
      if (signal.aborted) break;
      tried.add(name);
      const image = await store.find(name);
      if (!image) continue;
      const ext = name.slice(name.lastIndexOf('.') + 1) as ImageExtension;
      try {
        const picture = await processPicture(image.bytes, ext);
        await store.saveVariants(name, picture, picture.variants);
        made += 1;
      } catch (error) {
        // Uploads are queued: this picture waits for the next start.
        if (error instanceof ServiceUnavailable) continue;
        // Undecodable or too large: recorded as having no variants, so it is not tried again.
        await store.saveVariants(name, null, []);
      }
    }
  }
  return made;
}
