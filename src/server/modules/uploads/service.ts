import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { VariantFormat } from '../../../contracts/image';
import type { Db } from '../../db/client';
import { uploadedImages, uploadedImageVariants } from '../../db/schema';
import { type ImageExtension, imageKinds } from './images';
import type { PictureVariant } from './picture-processing';

export interface StoredImage {
  contentType: string;
  bytes: Buffer;
}

/** A stored picture's shape: null sizes until its variants are made (decision 0012). */
export interface StoredImageSize {
  name: string;
  width: number | null;
  height: number | null;
  variantWidths: number[] | null;
}

/** Looked up in batches, well under PostgreSQL's limit on parameters in one statement. */
const namesPerLookup = 1000;

const variantTypes: Record<VariantFormat, string> = { avif: 'image/avif', webp: 'image/webp' };

/** Uploaded pictures, kept in PostgreSQL so every process serves them (decision 0009). */
export class ImageStore {
  constructor(private readonly db: Db) {}

  /**
   * Insert-if-absent: the name is the content's hash, so a row already stored under it holds these
   * very bytes. Answers whether a row was added.
   */
  async save(image: { name: string; ext: ImageExtension; bytes: Buffer; uploadedBy: number | null }): Promise<boolean> {
    const added = await this.db
      .insert(uploadedImages)
      .values({ name: image.name, contentType: imageKinds[image.ext].type, byteSize: image.bytes.length, bytes: image.bytes, uploadedBy: image.uploadedBy })
      .onConflictDoNothing({ target: uploadedImages.name })
      .returning({ name: uploadedImages.name });
    return added.length > 0;
  }

  /**
   * Records a picture's upright size and its variants in one transaction, unless another process
   * already did. `variants` empty marks a picture that could not be decoded, so it is not tried again.
   */
  async saveVariants(name: string, size: { width: number; height: number } | null, variants: PictureVariant[]): Promise<void> {
    const widths = [...new Set(variants.map((variant) => variant.width))];
    await this.db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(uploadedImages)
        .set({ width: size?.width ?? null, height: size?.height ?? null, variantWidths: widths })
        .where(and(eq(uploadedImages.name, name), isNull(uploadedImages.variantWidths)))
        .returning({ name: uploadedImages.name });
      if (!claimed || !variants.length) return;
      await tx
        .insert(uploadedImageVariants)
        .values(variants.map((variant) => ({ imageName: name, width: variant.width, format: variant.format, byteSize: variant.bytes.length, bytes: variant.bytes })))
        .onConflictDoNothing();
    });
  }

  async find(name: string): Promise<StoredImage | undefined> {
    const [image] = await this.db
      .select({ contentType: uploadedImages.contentType, bytes: uploadedImages.bytes })
      .from(uploadedImages)
      .where(eq(uploadedImages.name, name));
    return image;
  }

  async findVariant(name: string, width: number, format: VariantFormat): Promise<StoredImage | undefined> {
    const [variant] = await this.db
      .select({ bytes: uploadedImageVariants.bytes })
      .from(uploadedImageVariants)
      .where(and(eq(uploadedImageVariants.imageName, name), eq(uploadedImageVariants.width, width), eq(uploadedImageVariants.format, format)));
    return variant && { contentType: variantTypes[format], bytes: variant.bytes };
  }

  /** The sizes of those named pictures that are stored. */
  async sizes(names: string[]): Promise<StoredImageSize[]> {
    const found: StoredImageSize[] = [];
    for (let start = 0; start < names.length; start += namesPerLookup) {
      const batch = names.slice(start, start + namesPerLookup);
      found.push(
        ...(await this.db
          .select({ name: uploadedImages.name, width: uploadedImages.width, height: uploadedImages.height, variantWidths: uploadedImages.variantWidths })
          .from(uploadedImages)
          .where(inArray(uploadedImages.name, batch))),
      );
    }
    return found;
  }

  /** Pictures stored before variants existed (or imported from disk), oldest first. */
  async withoutVariants(limit: number): Promise<string[]> {
    const rows = await this.db
      .select({ name: uploadedImages.name })
      .from(uploadedImages)
      .where(isNull(uploadedImages.variantWidths))
      .orderBy(uploadedImages.createdAt)
      .limit(limit);
    return rows.map((row) => row.name);
  }

  /** The names, of those given, that no stored picture has yet. */
  async unstored(names: string[]): Promise<string[]> {
    const stored = new Set((await this.sizes(names)).map((row) => row.name));
    return names.filter((name) => !stored.has(name));
  }
}
