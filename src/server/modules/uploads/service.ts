import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { uploadedImages } from '../../db/schema';
import { type ImageExtension, imageKinds } from './images';

export interface StoredImage {
  contentType: string;
  bytes: Buffer;
}

/** Looked up in batches, well under PostgreSQL's limit on parameters in one statement. */
const namesPerLookup = 1000;

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

  async find(name: string): Promise<StoredImage | undefined> {
    const [image] = await this.db
      .select({ contentType: uploadedImages.contentType, bytes: uploadedImages.bytes })
      .from(uploadedImages)
      .where(eq(uploadedImages.name, name));
    return image;
  }

  /** The names, of those given, that no stored picture has yet. */
  async unstored(names: string[]): Promise<string[]> {
    const stored = new Set<string>();
    for (let start = 0; start < names.length; start += namesPerLookup) {
      const batch = names.slice(start, start + namesPerLookup);
      const rows = await this.db.select({ name: uploadedImages.name }).from(uploadedImages).where(inArray(uploadedImages.name, batch));
      for (const row of rows) stored.add(row.name);
    }
    return names.filter((name) => !stored.has(name));
  }
}
