import { createHash } from 'node:crypto';

/**
 * A backup is a plain tar archive (`tar tf` lists it): a manifest, `mango-backup.json`, first, then
 * the database (the embedded database's folder as a tarball, or PostgreSQL's `pg_dump` custom
 * format), then mail the shop delivered into its outbox folder. The manifest holds every other
 * member's size and SHA-256, and every table's row count and digest at the moment of the backup,
 * so a restore can tell a whole backup from a damaged one before it changes anything, and check
 * the database it made against what was saved.
 */
export const manifestName = 'mango-backup.json';
export const backupFormat = 1;

export interface BackupManifest {
  format: typeof backupFormat;
  /** Which database it came from; a restore goes to the same kind. */
  kind: 'pglite' | 'postgres';
  createdAt: string;
  /** The migrations the database had: a restore refuses a backup from a newer release. */
  migrations: number;
  /** Rows and a digest of their contents, per table (`schema.table`). */
  tables: Record<string, { rows: number; digest: string }>;
  /** Every other member of the archive: its size and SHA-256. */
  files: Record<string, { bytes: number; sha256: string }>;
}

export class BackupError extends Error {}

const block = 512;

function header(name: string, size: number, mtime: Date): Buffer {
  if (Buffer.byteLength(name) > 100) throw new Error(`tar member name too long: ${name}`);
  const h = Buffer.alloc(block);
  h.write(name, 0, 100, 'utf8');
  h.write('0000644\0', 100, 8, 'ascii');
  h.write('0000000\0', 108, 8, 'ascii');
  h.write('0000000\0', 116, 8, 'ascii');
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 12, 'ascii');
  h.write(`${Math.floor(mtime.getTime() / 1000).toString(8).padStart(11, '0')}\0`, 136, 12, 'ascii');
  h.write('        ', 148, 8, 'ascii');
  h.write('0', 156, 1, 'ascii');
  h.write('ustar\0', 257, 6, 'ascii');
  h.write('00', 263, 2, 'ascii');
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii');
  return h;
}

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** An archive in pieces, to be written or sent one after another without joining them in memory. */
export interface Archive {
  parts: Buffer[];
  bytes: number;
}

/**
 * The largest archive this version writes: it reads a backup whole to check it before restoring,
 * and Node reads at most 2 GiB in one piece. A larger shop is backed up with PostgreSQL's tools.
 */
export const largestArchiveBytes = 2 ** 31 - 1;

/** The archive: the manifest (with each member's size and SHA-256 filled in) and the members. */
export function writeArchive(manifest: Omit<BackupManifest, 'files'>, members: Array<{ name: string; bytes: Uint8Array }>): Archive {
  const files: BackupManifest['files'] = {};
  for (const member of members) files[member.name] = { bytes: member.bytes.length, sha256: sha256(member.bytes) };
  const all = [{ name: manifestName, bytes: Buffer.from(`${JSON.stringify({ ...manifest, files }, null, 2)}\n`) }, ...members];
  const now = new Date(manifest.createdAt);
  const parts: Buffer[] = [];
  for (const member of all) {
    parts.push(header(member.name, member.bytes.length, now), Buffer.from(member.bytes.buffer, member.bytes.byteOffset, member.bytes.length));
    const pad = (block - (member.bytes.length % block)) % block;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(block * 2));
  const bytes = parts.reduce((sum, part) => sum + part.length, 0);
  if (bytes > largestArchiveBytes) {
    throw new BackupError(
      `The backup would be ${(bytes / 1e9).toFixed(1)} GB, more than the 2 GB this version can restore. A shop this size belongs on PostgreSQL, backed up with its own tools (pg_dump); see docs/operations.md, Backups and restore.`,
    );
  }
  return { parts, bytes };
}

/** The shapes a manifest's values take; a restore puts table names and digests into SQL. */
const manifestPatterns = {
  // Any name PostgreSQL allows, but no `$` (it could end a dollar-quoted block) and no control character.
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  table: /^(?:public|drizzle)\.[^\0-\x1f$]{1,63}$/,
  digest: /^[0-9a-f]{32}$/,
  // Not SQL, only looked up and joined to a folder's path: no control characters, no absolute path.
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  member: /^[^\0-\x1f/][^\0-\x1f]{0,99}$/,
  sha256: /^[0-9a-f]{64}$/,
  createdAt: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?(?:Z|[+-]\d{2}:\d{2})$/,
};

/**
 * Refuses a manifest any of whose values is not of its shape, before any of it is used: a backup is
 * trusted like the database it holds, but a name or digest that is not one (a value with
 * `$check$` in it would end the restore's check block early) says the file was made by hand.
 */
function manifestProblem(manifest: BackupManifest): void {
  const damaged = (what: string) => new BackupError(`The backup is damaged: its manifest has ${what}.`);
  if (typeof manifest.createdAt !== 'string' || !manifestPatterns.createdAt.test(manifest.createdAt)) throw damaged('no readable date');
  for (const [name, table] of Object.entries(manifest.tables)) {
    if (!manifestPatterns.table.test(name)) throw damaged(`a table name that is not one (${JSON.stringify(name.slice(0, 80))})`);
    if (!table || typeof table !== 'object' || !Number.isSafeInteger(table.rows) || table.rows < 0) throw damaged(`no row count for ${name}`);
    if (typeof table.digest !== 'string' || !manifestPatterns.digest.test(table.digest)) throw damaged(`a digest for ${name} that is not one`);
  }
  for (const [name, file] of Object.entries(manifest.files)) {
    if (!manifestPatterns.member.test(name) || name.split('/').includes('..')) throw damaged(`a member name that is not one (${JSON.stringify(name.slice(0, 80))})`);
    if (!file || typeof file !== 'object' || !Number.isSafeInteger(file.bytes) || file.bytes < 0) throw damaged(`no size for ${name}`);
    if (typeof file.sha256 !== 'string' || !manifestPatterns.sha256.test(file.sha256)) throw damaged(`a checksum for ${name} that is not one`);
  }
}

/**
 * Reads and checks a whole archive: every header's checksum, the manifest, and each member's size
 * and SHA-256 against it. Anything amiss is a BackupError saying what, and nothing is returned.
 */
export function readArchive(archive: Buffer): { manifest: BackupManifest; members: Map<string, Buffer> } {
  const members = new Map<string, Buffer>();
  let offset = 0;
  let ended = false;
  while (offset + block <= archive.length) {
    const h = archive.subarray(offset, offset + block);
    if (h.every((byte) => byte === 0)) {
      ended = true;
      break;
    }
    const stored = Number.parseInt(h.subarray(148, 156).toString('ascii').replace(/\0.*$/s, '').trim(), 8);
    let sum = 0;
    for (let i = 0; i < block; i += 1) sum += i >= 148 && i < 156 ? 32 : h[i]!;
    if (stored !== sum) throw new BackupError(`This is not a Mango Shop backup, or it is damaged: a tar header at byte ${offset} does not check out.`);
    const name = h.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const size = Number.parseInt(h.subarray(124, 136).toString('ascii').replace(/\0.*$/s, '').trim(), 8);
    if (!Number.isSafeInteger(size) || size < 0) throw new BackupError(`The backup is damaged: the member ${name} has no readable size.`);
    const start = offset + block;
    if (start + size > archive.length) throw new BackupError(`The backup is cut short: ${name} should have ${size} bytes, and the file ends before them. Was it copied completely?`);
    members.set(name, archive.subarray(start, start + size));
    offset = start + Math.ceil(size / block) * block;
  }
  if (!ended) throw new BackupError('The backup is cut short: its end marker is missing. Was it copied completely?');
  const manifestBytes = members.get(manifestName);
  if (!manifestBytes) throw new BackupError(`This is not a Mango Shop backup: it has no ${manifestName}.`);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(manifestBytes.toString('utf8')) as BackupManifest;
  } catch {
    throw new BackupError(`The backup is damaged: ${manifestName} is not readable JSON.`);
  }
  if (manifest.format !== backupFormat) throw new BackupError(`This backup has format ${String(manifest.format)}; this version of the shop reads format ${backupFormat}. Restore it with the version that made it, or a newer one.`);
  if (manifest.kind !== 'pglite' && manifest.kind !== 'postgres') throw new BackupError('The backup is damaged: its manifest does not say which database it holds.');
  if (!Number.isInteger(manifest.migrations) || !manifest.tables || typeof manifest.tables !== 'object' || !manifest.files || typeof manifest.files !== 'object') {
    throw new BackupError('The backup is damaged: its manifest lacks the migrations, the tables or the files it should list.');
  }
  manifestProblem(manifest);
  for (const name of members.keys()) {
    if (name !== manifestName && !(name in manifest.files)) throw new BackupError(`The backup is damaged: it holds ${name}, which its manifest does not list.`);
  }
  for (const [name, expected] of Object.entries(manifest.files)) {
    const bytes = members.get(name);
    if (!bytes) throw new BackupError(`The backup is damaged: ${name} is missing.`);
    if (bytes.length !== expected.bytes || sha256(bytes) !== expected.sha256) throw new BackupError(`The backup is damaged: ${name} does not match its checksum.`);
  }
  return { manifest, members };
}
