import fs from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid of a live process holding the data folder's lock, if one does. */
export function lockHolder(dir: string): number | undefined {
  try {
    const holder = Number.parseInt(fs.readFileSync(path.join(dir, 'server.lock'), 'utf8'), 10);
    return Number.isInteger(holder) && holder !== process.pid && isAlive(holder) ? holder : undefined;
  } catch {
    return undefined;
  }
}

/**
 * PGlite does not lock its folder and two writers corrupt it, so the server holds a lock file with
 * its pid. A lock left by a process that has died is taken over.
 */
export function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const lockPath = path.join(dir, 'server.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return () => {
        try {
          if (fs.readFileSync(lockPath, 'utf8') === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(fs.readFileSync(lockPath, 'utf8'), 10);
      if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
        throw new DataDirLockedError(
          `The database folder ${dir} is in use by another Mango Shop process (pid ${holder}). ` +
            'Stop that process first, or set DATA_DIR to another folder.',
        );
      }
      fs.unlinkSync(lockPath);
    }
  }
  throw new DataDirLockedError(`Could not lock the database folder ${dir}; another process keeps taking it.`);
}
