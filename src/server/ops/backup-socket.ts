import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type Archive, BackupError } from './backup-archive';
import { writeWhole } from './backup';
import { privateFileMode, withPrivateUmask } from '../lib/private-files';

/** A request must arrive this soon after connecting; an answer must keep coming at least this often. */
const quietLimitMs = 30_000;

/**
 * Only the process that holds the embedded database may read it, so `npm run backup` asks the
 * running shop for its backup over a Unix socket in the data folder, readable by the shop's own
 * user only. A path too long for a socket name goes to a folder of this user's own (mode 0700) in
 * the system's temporary folder instead, named after the data folder.
 */
export function backupSocketPath(dataDir: string): string {
  const inFolder = path.join(dataDir, 'backup.sock');
  if (Buffer.byteLength(inFolder) <= 100) return inFolder;
  const own = path.join(os.tmpdir(), `mango-shop-${process.getuid?.() ?? 'user'}`);
  return path.join(own, `backup-${createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16)}.sock`);
}

/** The socket's folder, when it is not the data folder: made 0700, and refused unless it is this user's own. */
function ownFolder(socketPath: string, dataDir: string): void {
  const folder = path.dirname(socketPath);
  if (folder === dataDir) return;
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  const stat = fs.lstatSync(folder);
  if (!stat.isDirectory() || (process.getuid && stat.uid !== process.getuid()) || (stat.mode & 0o077) !== 0) {
    throw new Error(`${folder} is not a private folder of this user: no backup socket is made there`);
  }
}

interface Log {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/**
 * Answers backup requests on the data folder's socket, one at a time, until closed. A socket that
 * cannot be made (a file system without sockets) leaves the shop running without it, with a warning.
 */
export async function serveBackups(dataDir: string, backup: () => Promise<Archive>, log: Log): Promise<{ close(): Promise<void> } | undefined> {
  const socketPath = backupSocketPath(dataDir);
  let queue: Promise<unknown> = Promise.resolve();
  const open = new Set<net.Socket>();
  const answering = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    socket.on('error', () => undefined);
    socket.setTimeout(quietLimitMs, () => socket.destroy());
    let asked = '';
    socket.on('data', (chunk: Buffer) => {
      asked += chunk.toString('utf8');
      if (asked.length > 64) return void socket.destroy();
      if (!asked.includes('\n')) return;
      socket.removeAllListeners('data');
      if (asked.trim() !== 'backup') return void socket.end(`${JSON.stringify({ ok: false, message: 'unknown request' })}\n`);
      answering.add(socket);
      queue = queue.then(async () => {
        const started = Date.now();
        try {
          const archive = await backup();
          socket.write(`${JSON.stringify({ ok: true, bytes: archive.bytes })}\n`);
          for (const part of archive.parts) socket.write(part);
          socket.end();
          log.info({ bytes: archive.bytes, ms: Date.now() - started }, 'made a backup for npm run backup');
        } catch (error) {
          log.error({ err: error }, 'a backup asked for by npm run backup failed');
          socket.end(`${JSON.stringify({ ok: false, message: error instanceof Error ? error.message : String(error) })}\n`);
        } finally {
          answering.delete(socket);
        }
      });
    });
  });
  try {
    ownFolder(socketPath, dataDir);
    // The caller holds the data folder's lock: a socket file left there is a dead process's.
    fs.rmSync(socketPath, { force: true });
    // Bound at once by listen, under a umask that leaves it to this user from its first moment.
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      withPrivateUmask(() => server.listen(socketPath, () => resolve()));
    });
    fs.chmodSync(socketPath, privateFileMode);
  } catch (error) {
    log.warn({ err: error, socket: socketPath }, 'could not open the backup socket: npm run backup cannot reach this shop while it runs (scheduled backups still work)');
    return undefined;
  }
  server.unref();
  return {
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A client that asked nothing, or is not being answered, does not hold the stop up.
      for (const socket of open) if (!answering.has(socket)) socket.destroy();
      await queue;
      await closed;
      fs.rmSync(socketPath, { force: true });
    },
  };
}

/**
 * Asks the shop running on `dataDir` for a backup and writes it to `file` as it arrives (whole or
 * not at all); answers its size. A BackupError says why it could not.
 */
export async function askRunningShop(dataDir: string, pid: number, file: string): Promise<number> {
  const socketPath = backupSocketPath(dataDir);
  const stat = fs.statSync(socketPath, { throwIfNoEntry: false });
  if (!stat?.isSocket()) {
    throw new BackupError(`The shop running on ${dataDir} (pid ${pid}) has no backup socket at ${socketPath}: it may still be starting (try again in a moment), predate backups (update and restart it), or have logged why it could not make one.`);
  }
  if (process.getuid && stat.uid !== process.getuid()) {
    throw new BackupError(`The backup socket ${socketPath} belongs to another user (uid ${stat.uid}): run npm run backup as the user the shop runs as.`);
  }
  const socket = net.connect(socketPath);
  socket.setTimeout(quietLimitMs * 20);
  const failed = new Promise<never>((_, reject) => {
    socket.once('error', (error: NodeJS.ErrnoException) => reject(new BackupError(`The shop on ${dataDir} (pid ${pid}) could not be asked for a backup: ${error.code ?? error.message}.`)));
    socket.once('timeout', () => reject(new BackupError('The running shop stopped sending the backup: see its log, and try again.')));
  });
  failed.catch(() => undefined);
  socket.write('backup\n');
  let expected: number | undefined;
  let received = 0;
  /** The answer's first line, then the archive's bytes as they come. */
  async function* archive(): AsyncGenerator<Buffer> {
    let head = Buffer.alloc(0);
    for await (const chunk of socket as AsyncIterable<Buffer>) {
      if (expected === undefined) {
        head = Buffer.concat([head, chunk]);
        const newline = head.indexOf(10);
        if (newline < 0) continue;
        let answer: { ok?: boolean; bytes?: number; message?: string };
        try {
          answer = JSON.parse(head.subarray(0, newline).toString('utf8')) as typeof answer;
        } catch {
          throw new BackupError('The running shop answered something that is not a backup: see its log.');
        }
        if (!answer.ok || typeof answer.bytes !== 'number') throw new BackupError(`The running shop could not make the backup: ${answer.message ?? 'see its log'}`);
        expected = answer.bytes;
        const rest = head.subarray(newline + 1);
        received += rest.length;
        if (rest.length) yield rest;
      } else {
        received += chunk.length;
        yield chunk;
      }
    }
    if (expected === undefined) throw new BackupError('The running shop closed the connection before answering: see its log.');
    if (received !== expected) throw new BackupError(`The backup arrived incomplete (${received} of ${expected} bytes): try again.`);
  }
  try {
    return await Promise.race([writeWhole(file, archive()), failed]);
  } finally {
    socket.destroy();
  }
}
