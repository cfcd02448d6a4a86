/** The formats every uploaded picture is also served in, best first (decision 0012). */
export const variantFormats = ['avif', 'webp'] as const;
export type VariantFormat = (typeof variantFormats)[number];

/**
 * What the web app needs to show a picture without layout shift and at the size a screen needs:
 * its intrinsic size and the widths it is served at as /uploads/<name>/<width>.<avif|webp>.
 * `widths` is empty for a vector picture (SVG) or one whose variants are not made yet.
 */
export interface ImageInfo {
  url: string;
  width: number;
  height: number;
  widths: number[];
}

/** Where one variant of an uploaded picture is served. */
export function variantUrl(url: string, width: number, format: VariantFormat): string {
  return `${url}/${width}.${format}`;
}
