import sharp, { type Sharp } from 'sharp';
import { variantFormats, type VariantFormat } from '../../../contracts/image';
import { ServiceUnavailable } from '../../lib/errors';
import type { ImageExtension } from './images';

/**
 * Decision 0012: libvips gets one thread per picture and no operation cache, and one picture is
 * processed at a time per process, so a burst of uploads on a small server queues instead of
 * multiplying the memory a decode takes.
 */
sharp.concurrency(1);
sharp.cache(false);

/** 40 megapixels (8000 x 5000): above any phone's photo; a decompression bomb is refused before it is decoded. */
export const maxPicturePixels = 40_000_000;
/** Pictures waiting for their turn beyond the one being processed; more are answered 503. */
const maxWaiting = 8;

/** The widths phones and desktops ask for; a picture gets those it is wide enough for (never upscaled). */
export const standardWidths = [320, 640, 960, 1280, 1920] as const;

export function variantWidthsFor(originalWidth: number): number[] {
  const fitting = standardWidths.filter((width) => width <= originalWidth);
  return fitting.length ? fitting : [originalWidth];
}

export interface PictureVariant {
  width: number;
  format: VariantFormat;
  bytes: Buffer;
}

export interface ProcessedPicture {
  /** The picture turned upright, metadata (camera, place) removed, in its own format and size. */
  normalised: Buffer;
  width: number;
  height: number;
  variants: PictureVariant[];
}

export class PictureTooLarge extends Error {}

/** Width and height as shown (EXIF orientation applied), read from the header alone: nothing is decoded. */
export async function uprightSize(bytes: Buffer): Promise<{ width: number; height: number }> {
  const { autoOrient } = await sharp(bytes, { limitInputPixels: false }).metadata();
  return { width: autoOrient.width, height: autoOrient.height };
}

let running: Promise<unknown> = Promise.resolve();
let waiting = 0;

/** Runs `work` after the pictures before it; refuses (503) when too many are already waiting. */
function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (waiting >= maxWaiting) throw new ServiceUnavailable('Too many pictures are being processed: try again in a minute');
  waiting += 1;
  const result = running.then(work, work).finally(() => {
    waiting -= 1;
  });
  running = result.catch(() => undefined);
  return result;
}

const encoders: Record<VariantFormat, (image: Sharp) => Sharp> = {
  avif: (image) => image.avif({ quality: 50, effort: 2 }),
  webp: (image) => image.webp({ quality: 75, effort: 4 }),
};

const sameFormat: Record<ImageExtension, (image: Sharp) => Sharp> = {
  jpg: (image) => image.jpeg({ quality: 88, mozjpeg: true }),
  png: (image) => image.png({ compressionLevel: 9 }),
  webp: (image) => image.webp({ quality: 85 }),
};

/**
 * The upright, metadata-free original and its AVIF and WebP variants. Throws PictureTooLarge over
 * maxPicturePixels, and sharp's own error for bytes it cannot decode.
 */
export async function processPicture(bytes: Buffer, ext: ImageExtension): Promise<ProcessedPicture> {
  const { width, height } = await uprightSize(bytes);
  if (width * height > maxPicturePixels) throw new PictureTooLarge(`${width} x ${height}`);
  return inTurn(async () => {
    const input = sharp(bytes, { limitInputPixels: maxPicturePixels, failOn: 'error' }).autoOrient();
    const normalised = await sameFormat[ext](input.clone()).toBuffer();
    const variants: PictureVariant[] = [];
    for (const variantWidth of variantWidthsFor(width)) {
      for (const format of variantFormats) {
        const resized = input.clone().resize({ width: variantWidth, withoutEnlargement: true });
        variants.push({ width: variantWidth, format, bytes: await encoders[format](resized).toBuffer() });
      }
    }
    return { normalised, width, height, variants };
  });
}

/** A claim photo's longest side: enough to see a bruise, small enough to keep many in the database. */
const claimPhotoSide = 1600;

/**
 * A shopper's photo for a freshness claim: turned upright, at most 1600 px on its longest side,
 * re-encoded as JPEG so no metadata (camera, the place it was taken) is kept. Throws PictureTooLarge
 * over maxPicturePixels, and sharp's own error for bytes it cannot decode.
 */
export async function claimPhoto(bytes: Buffer): Promise<Buffer> {
  const { width, height } = await uprightSize(bytes);
  if (width * height > maxPicturePixels) throw new PictureTooLarge(`${width} x ${height}`);
  return inTurn(() =>
    sharp(bytes, { limitInputPixels: maxPicturePixels, failOn: 'error' })
      .autoOrient()
      .resize({ width: claimPhotoSide, height: claimPhotoSide, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer(),
  );
}
