import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { BackupError } from './backup-archive';

/**
 * Only the process that holds the embedded database may read it, so `npm run backup` asks the
 * running shop for its backup over a Unix socket in the data folder, readable by the shop's own
 * user only. A path too long for a socket name goes to the system's temporary folder instead,
 * named after the data folder, where the backup command finds it the same way.
 */
export function backupSocketPath(dataDir: string): string {
  const inFolder = path.join(dataDir, 'backup.sock');
  if (Buffer.byteLength(inFolder) <= 100) return inFolder;
  return path.join(os.tmpdir(), `mango-backup-${createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16)}.sock`);
}

interface Log {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** Answers backup requests on the data folder's socket, one at a time, until closed. */
export async function serveBackups(dataDir: string, backup: () => Promise<Buffer>, log: Log): Promise<{ close(): Promise<void> }> {
  const socketPath = backupSocketPath(dataDir);
  // The caller holds the data folder's lock: a socket file left there is a dead process's.
  fs.rmSync(socketPath, { force: true });
  let queue: Promise<unknown> = Promise.resolve();
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    let asked = '';
    socket.on('data', (chunk: Buffer) => {
      asked += chunk.toString('utf8');
      if (!asked.includes('\n')) return;
      socket.removeAllListeners('data');
      if (asked.trim() !== 'backup') {
        socket.end(`${JSON.stringify({ ok: false, message: 'unknown request' })}\n`);
        return;
      }
      queue = queue.then(async () => {
        const started = Date.now();
        try {
          const bytes = await backup();
          socket.write(`${JSON.stringify({ ok: true, bytes: bytes.length })}\n`);
          socket.end(bytes);
          log.info({ bytes: bytes.length, ms: Date.now() - started }, 'made a backup for npm run backup');
        } catch (error) {
          log.error({ err: error }, 'a backup asked for by npm run backup failed');
          socket.end(`${JSON.stringify({ ok: false, message: error instanceof Error ? error.message : String(error) })}\n`);
        }
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  fs.chmodSync(socketPath, 0o600);
  server.unref();
  return {
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await queue;
      fs.rmSync(socketPath, { force: true });
    },
  };
}

/** Asks the shop running on `dataDir` for a backup; a BackupError says why it could not. */
export function askRunningShop(dataDir: string, pid: number): Promise<Buffer> {
  const socketPath = backupSocketPath(dataDir);
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    const chunks: Buffer[] = [];
    socket.on('connect', () => socket.write('backup\n'));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        new BackupError(
          `The shop running on ${dataDir} (pid ${pid}) does not answer backup requests (${error.code ?? error.message}). ` +
            'It may be a version from before backups: update it and restart it, or stop it and run the backup again.',
        ),
      ),
    );
    socket.on('end', () => {
      const all = Buffer.concat(chunks);
      const newline = all.indexOf(10);
      if (newline < 0) return reject(new BackupError('The running shop closed the connection before answering: see its log.'));
      const answer = JSON.parse(all.subarray(0, newline).toString('utf8')) as { ok: boolean; bytes?: number; message?: string };
      if (!answer.ok) return reject(new BackupError(`The running shop could not make the backup: ${answer.message ?? 'see its log'}`));
      const bytes = all.subarray(newline + 1);
      if (bytes.length !== answer.bytes) return reject(new BackupError(`The backup arrived incomplete (${bytes.length} of ${answer.bytes} bytes): try again.`));
      resolve(bytes);
    });
  });
}
