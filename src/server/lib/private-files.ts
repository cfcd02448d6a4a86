import fs from 'node:fs';
import fsPromises from 'node:fs/promises';

/**
 * Files only the shop's own user may read: delivered mail (its reset and unsubscribe links work for
 * whoever reads them) and the backup socket. A folder is made 0700, and one made earlier with
 * wider rights (an older version, a restore) is narrowed; a file is created 0600.
 */
export const privateFolderMode = 0o700;
export const privateFileMode = 0o600;

export async function privateFolder(folder: string): Promise<void> {
  await fsPromises.mkdir(folder, { recursive: true, mode: privateFolderMode });
  await fsPromises.chmod(folder, privateFolderMode);
}

export function privateFolderSync(folder: string): void {
  fs.mkdirSync(folder, { recursive: true, mode: privateFolderMode });
  fs.chmodSync(folder, privateFolderMode);
}

/**
 * Runs `make` (which creates a file or socket at once, such as a server's listen on a path) with a
 * umask that leaves new entries to this user alone, so there is no moment when the entry is open
 * to others before a chmod narrows it. Synchronous: the process's umask is narrowed for no longer.
 */
export function withPrivateUmask<T>(make: () => T): T {
  const previous = process.umask(0o077);
  try {
    return make();
  } finally {
    process.umask(previous);
  }
}
