import { type ImageInfo, variantFormats, variantUrl } from '../../../contracts/image';

/**
 * How the picture loads. `lcp`: the page's largest picture, fetched first; `eager`: above the fold
 * but not the largest; `lazy` (the default): below the fold, fetched as it nears the screen.
 */
export type ImageLoading = 'lcp' | 'eager' | 'lazy';

interface ResponsiveImageProps {
  src: string;
  /** The picture's size and variant widths from the API; null when unknown (the box below is used). */
  image: ImageInfo | null;
  alt: string;
  /** The width the picture takes in each layout, as the <img sizes> attribute reads it. */
  sizes: string;
  /** The box the layout gives the picture, for its width and height when the API does not know them. */
  box: { width: number; height: number };
  loading?: ImageLoading;
  className?: string;
}

const mimeTypes = { avif: 'image/avif', webp: 'image/webp' } as const;

/**
 * Every product, gallery and testimonial picture (decision 0012): AVIF and WebP at the widths the
 * server made, so a phone fetches a phone-sized file; width and height always set, so nothing shifts.
 * SVGs and pictures without variants are a plain <img>.
 */
export function ResponsiveImage({ src, image, alt, sizes, box, loading = 'lazy', className }: ResponsiveImageProps) {
  const img = (
    <img
      src={src}
      alt={alt}
      width={image?.width ?? box.width}
      height={image?.height ?? box.height}
      loading={loading === 'lazy' ? 'lazy' : 'eager'}
      decoding={loading === 'lcp' ? 'auto' : 'async'}
      fetchPriority={loading === 'lcp' ? 'high' : undefined}
      sizes={image?.widths.length ? sizes : undefined}
      className={className}
    />
  );
  if (!image?.widths.length || image.url !== src) return img;
  const widths = image.widths;
  return (
    <picture className="contents">
      {variantFormats.map((format) => (
        <source key={format} type={mimeTypes[format]} sizes={sizes} srcSet={widths.map((width) => `${variantUrl(image.url, width, format)} ${width}w`).join(', ')} />
      ))}
      {img}
    </picture>
  );
}
