import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../../db/client';
import { type ImageExtension, sniffImage, storedImageName } from './images';
import { ImageStore } from './service';

export interface DiskImageImport {
  imported: number;
  /** Files named like pictures whose bytes are not the picture the name says: left out. */
  refused: string[];
}

const missingFolder = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Decision 0009: earlier versions kept uploads in DATA_DIR/uploads, on one host's disk. At start,
 * each picture there that the database lacks is copied in under its old name, so the addresses
 * products, banners and testimonials hold keep working on every host. Only the names are checked
 * against the database first, so later starts read no file twice. The files stay where they are.
 */
export async function importDiskImages(db: Db, folder: string): Promise<DiskImageImport> {
  const entries = await fs.readdir(folder, { withFileTypes: true }).catch((error: unknown) => {
    if (missingFolder(error)) return [];
    throw error;
  });
  const store = new ImageStore(db);
  const names = entries.filter((entry) => entry.isFile() && storedImageName.test(entry.name)).map((entry) => entry.name);
  const result: DiskImageImport = { imported: 0, refused: [] };
  for (const name of await store.unstored(names)) {
    const bytes = await fs.readFile(path.join(folder, name)).catch((error: unknown) => {
      if (missingFolder(error)) return undefined;
      throw error;
    });
    if (!bytes) continue;
    const ext = path.extname(name).slice(1) as ImageExtension;
    // Only what the upload route accepts: bytes that are the kind of picture the name says.
    if (sniffImage(bytes) !== ext) {
      result.refused.push(name);
      continue;
    }
    if (await store.save({ name, ext, bytes, uploadedBy: null })) result.imported += 1;
  }
  return result;
}
