import type { Banner } from '../../../contracts/content';
import { builtInFarmImages } from './built-in-farm-images';
import { useFarmGallery } from './use-farm-gallery';
import { ResponsiveImage } from '../../components/ui/responsive-image';

/** Spec 2 and 7: farm photographs with captions; built-in images when the call fails or is empty. */
export function FarmGallery() {
  const gallery = useFarmGallery();
  const images: Banner[] = gallery.isPending ? [] : gallery.data?.length ? gallery.data : builtInFarmImages;
  return (
    <section aria-labelledby="farm-gallery" className="space-y-8">
      <div className="space-y-2 text-center">
        <h2 id="farm-gallery" className="text-3xl font-semibold">From Our Farms to You</h2>
        <p className="text-ink-500">Follow every mango from the orchard to your kitchen bench.</p>
      </div>
      <ul className="grid gap-6 sm:grid-cols-2" aria-busy={gallery.isPending}>
        {gallery.isPending
          ? builtInFarmImages.map((image) => (
              <li key={image.id} aria-hidden="true" className="overflow-hidden rounded-2xl bg-white shadow-sm">
                <div className="aspect-video animate-pulse bg-mango-50" />
                <div className="h-14" />
              </li>
            ))
          : images.map((image) => (
              <li key={image.id}>
                <figure className="overflow-hidden rounded-2xl bg-white shadow-sm">
                  <ResponsiveImage
                    src={image.imageUrl}
                    image={image.image}
                    alt={image.title}
                    sizes="(min-width: 1200px) 588px, (min-width: 640px) calc(50vw - 28px), calc(100vw - 32px)"
                    box={{ width: 1200, height: 675 }}
                    className="aspect-video w-full object-cover"
                  />
                  <figcaption className="px-5 py-4 font-semibold">{image.title}</figcaption>
                </figure>
              </li>
            ))}
      </ul>
    </section>
  );
}
