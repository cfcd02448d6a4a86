import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite, queryRows } from '../db/client';
import { readArchive, writeArchive } from '../ops/backup-archive';
import { writeWhole } from '../ops/backup';
import { backupSocketPath } from '../ops/backup-socket';
import { tableDigests } from '../ops/table-digests';
import { buildServer, HttpShopper, type Outcome, products, type ShopProcess, shoppers, startShop, stopShop } from './harness';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mango-backup-'));
const running: ShopProcess[] = [];
const admin = { email: 'owner@example.nz', password: 'a long pass phrase' };

afterAll(async () => {
  for (const shop of running) await stopShop(shop, 'SIGKILL');
  fs.rmSync(root, { recursive: true, force: true });
});

/** `npm run backup` or `npm run restore`, as a shop owner runs them, with the data folder given. */
function ownerCommand(script: 'backup' | 'restore', args: string[], dataDir: string, databaseUrl = ''): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `scripts/${script}.ts`, ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

async function signInAdmin(url: string): Promise<string> {
  const login = await fetch(`${url}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(admin) });
  expect(login.status).toBe(200);
  return (login.headers.getSetCookie().find((c) => c.startsWith('mango_session=')) ?? '').split(';')[0]!;
}

async function uploadPicture(url: string, cookie: string, colour: { r: number; g: number; b: number }): Promise<string> {
  const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: colour } }).png().toBuffer();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'mango.png');
  const response = await fetch(`${url}/api/admin/uploads`, { method: 'POST', headers: { cookie, origin: url }, body: form });
  expect(response.status).toBe(201);
  return ((await response.json()) as { url: string }).url;
}

/** Every stored picture's addresses: the picture and each of its variants. */
async function pictureAddresses(dataDir: string): Promise<string[]> {
  const database = await openPglite(path.join(dataDir, 'pglite'));
  try {
    const images = await queryRows<{ name: string }>(database.db, sql`select name from uploaded_images order by name`);
    const variants = await queryRows<{ name: string; width: number; format: string }>(database.db, sql`select image_name as name, width, format from uploaded_image_variants order by 1, 2, 3`);
    return [...images.map((i) => `/uploads/${i.name}`), ...variants.map((v) => `/uploads/${v.name}/${v.width}.${v.format}`)];
  } finally {
    await database.close();
  }
}

async function digestsOf(dataDir: string) {
  const database = await openPglite(path.join(dataDir, 'pglite'));
  try {
    return await tableDigests(async <T>(text: string) => queryRows<T>(database.db, sql.raw(text)));
  } finally {
    await database.close();
  }
}

describe.skipIf(Boolean(process.env.DATABASE_URL))('backups of the embedded database', () => {
  it('are taken while the shop takes orders, restore into a fresh folder with every row and picture, and a damaged file changes nothing', async () => {
    await buildServer();
    const sourceDir = path.join(root, 'source');
    // An outbox an older version made open to everyone: the shop narrows it.
    fs.mkdirSync(path.join(sourceDir, 'outbox'), { recursive: true, mode: 0o755 });
    fs.chmodSync(path.join(sourceDir, 'outbox'), 0o755);
    const shop = await startShop({ DATA_DIR: sourceDir, ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password });
    running.push(shop);
    const cookie = await signInAdmin(shop.url);
    const pictures = [await uploadPicture(shop.url, cookie, { r: 250, g: 180, b: 30 }), await uploadPicture(shop.url, cookie, { r: 60, g: 140, b: 40 })];
    const box = (await products(shop.url)).filter((p) => !p.isPreOrder).sort((a, b) => b.stock - a.stock)[0]!;
    const buyers = await shoppers(shop.url, 6, 'backed-up');

    // Write load: every shopper carts a box and orders it, again and again (up to 9 orders each,
    // within the box's stock), while the backup is taken.
    let stop = false;
    const placed: Array<{ buyer: HttpShopper; number: string; answeredAt: number }> = [];
    const failures: Outcome[] = [];
    const load = Promise.all(
      buyers.map(async (buyer) => {
        for (let orders = 0; orders < 9 && !stop; orders += 1) {
          await new Promise((resolve) => setTimeout(resolve, 250));
          const added = await buyer.addToCart(box.id, 1);
          const outcome = await buyer.placeOrder();
          if ('status' in added && 'status' in outcome && outcome.status === 201) placed.push({ buyer, number: (outcome.body.order as { number: string }).number, answeredAt: Date.now() });
          // A delivery day filled by the others in the meantime is the shop's answer, not a failure.
          else if (!('status' in outcome) || outcome.status !== 409) failures.push(outcome);
        }
      }),
    );
    while (placed.length < 5) await new Promise((resolve) => setTimeout(resolve, 50));
    const file = path.join(root, 'shop.tar');
    const backupStarted = Date.now();
    const backup = await ownerCommand('backup', [file], sourceDir);
    // The shop kept taking orders during the backup, and after it.
    const countAfterBackup = placed.length;
    const loadDone = load.then(() => (stop = true));
    while (placed.length < countAfterBackup + 3 && !stop) await new Promise((resolve) => setTimeout(resolve, 50));
    stop = true;
    await loadDone;
    expect(backup.output).toMatch(/Wrote a backup of the embedded database, from the running shop \(pid \d+\)/);
    expect(backup.code).toBe(0);
    expect(failures).toEqual([]);
    expect(placed.filter((p) => p.answeredAt > backupStarted).length).toBeGreaterThan(0);
    expect(shop.output()).toMatch(/made a backup for npm run backup/);
    expect(fs.statSync(backupSocketPath(sourceDir)).mode & 0o777, 'the backup socket').toBe(0o600);

    const { manifest } = readArchive(fs.readFileSync(file));
    expect(manifest.kind).toBe('pglite');
    const ordersSaved = manifest.tables['public.orders']!.rows;
    const before = placed.filter((p) => p.answeredAt < backupStarted);
    expect(ordersSaved).toBeGreaterThanOrEqual(before.length);
    expect(ordersSaved).toBeLessThanOrEqual(placed.length);

    // Restored into a fresh folder: every table's rows are the backup's, row for row.
    const restoredDir = path.join(root, 'restored');
    const restore = await ownerCommand('restore', [file], restoredDir);
    expect(restore.output).toMatch(/Restored the backup made .* tables, \d+ rows, each checked against the backup/);
    expect(restore.code).toBe(0);
    // Delivered mail holds live reset and unsubscribe links: only the shop's user may read it, before and after.
    for (const dir of [sourceDir, restoredDir]) expect(privateModes(path.join(dir, 'outbox')), dir).toEqual({ folder: 0o700, files: [0o600] });
    const restoredDigests = await digestsOf(restoredDir);
    expect(restoredDigests).toEqual(manifest.tables);
    const addresses = await pictureAddresses(restoredDir);
    expect(addresses.length).toBeGreaterThan(pictures.length);

    // A shop started on it shows every order answered before the backup to its shopper, and every picture byte for byte.
    await stopShop(shop);
    const original = await startShop({ DATA_DIR: sourceDir });
    running.push(original);
    const restored = await startShop({ DATA_DIR: restoredDir });
    running.push(restored);
    for (const address of addresses) {
      const [a, b] = await Promise.all([fetch(`${original.url}${address}`), fetch(`${restored.url}${address}`)]);
      expect(b.status, address).toBe(200);
      expect(Buffer.from(await b.arrayBuffer()).equals(Buffer.from(await a.arrayBuffer())), address).toBe(true);
    }
    for (const { buyer, number } of before) {
      const again = new HttpShopper(restored.url, buyer.email);
      await again.signIn();
      const orders = (await (await fetch(`${restored.url}/api/orders`, { headers: { cookie: again.cookieHeader() } })).json()) as Array<{ number: string }>;
      expect(orders.map((o) => o.number)).toContain(number);
    }
    await stopShop(restored);

    // A truncated or corrupted backup is refused with a reason, and nothing changes.
    const truncated = path.join(root, 'truncated.tar');
    fs.writeFileSync(truncated, fs.readFileSync(file).subarray(0, Math.floor(fs.statSync(file).size / 2)));
    const emptyDir = path.join(root, 'never');
    const cut = await ownerCommand('restore', [truncated], emptyDir);
    expect(cut.code).toBe(1);
    expect(cut.output).toMatch(/The backup is cut short/);
    expect(fs.existsSync(path.join(emptyDir, 'pglite'))).toBe(false);

    const corrupt = path.join(root, 'corrupt.tar');
    const damaged = Buffer.from(fs.readFileSync(file));
    damaged.write('mango', Math.floor(damaged.length / 3));
    fs.writeFileSync(corrupt, damaged);
    const beforeBad = await digestsOf(restoredDir);
    const bad = await ownerCommand('restore', [corrupt, '--force'], restoredDir);
    expect(bad.code).toBe(1);
    expect(bad.output).toMatch(/The backup is damaged: database\/pglite\.tar\.gz does not match its checksum/);
    expect(await digestsOf(restoredDir)).toEqual(beforeBad);
    expect(fs.readdirSync(restoredDir).filter((name) => name.startsWith('pglite'))).toEqual(['pglite']);

    // A manifest is read before any of it reaches SQL: a digest that would end the check's block
    // early, a table name that is not one, and a member that climbs out of its folder are refused.
    const { manifest: real, members } = readArchive(fs.readFileSync(file));
    const contents = [...members].filter(([name]) => name !== 'mango-backup.json').map(([name, bytes]) => ({ name, bytes }));
    const [firstTable] = Object.keys(real.tables);
    for (const [label, tables, message] of [
      ['a digest', { ...real.tables, [firstTable!]: { rows: real.tables[firstTable!]!.rows, digest: "x' THEN END IF; END $check$; DROP TABLE public.orders; DO $check$ BEGIN IF true" } }, /a digest for [\w.]+ that is not one/],
      ['a table name', { ...real.tables, 'public.orders$check$; drop table public.users; --': { rows: 0, digest: '0'.repeat(32) } }, /a table name that is not one/],
      ['a row count', { ...real.tables, [firstTable!]: { rows: '1 OR true', digest: real.tables[firstTable!]!.digest } }, /no row count for/],
    ] as const) {
      const forged = path.join(root, 'forged.tar');
      await writeWhole(forged, writeArchive({ ...real, tables: tables as typeof real.tables }, contents));
      const beforeForged = await digestsOf(restoredDir);
      const refusedForged = await ownerCommand('restore', [forged, '--force'], restoredDir);
      expect(refusedForged.code, label).toBe(1);
      expect(refusedForged.output, label).toMatch(message);
      expect(await digestsOf(restoredDir), label).toEqual(beforeForged);
    }

    // Into a folder that holds a database, only when told; the database it replaces is kept.
    const refused = await ownerCommand('restore', [file], restoredDir);
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(/already holds a database.*--force/);
    const forced = await ownerCommand('restore', [file, '--force'], restoredDir);
    expect(forced.output).toMatch(/The database it replaced is kept in .*pglite\.before-restore-/);
    expect(forced.code).toBe(0);
    expect(await digestsOf(restoredDir)).toEqual(manifest.tables);
    const keptAside = fs.readdirSync(restoredDir).filter((name) => name.startsWith('pglite.before-restore-'));
    expect(keptAside).toHaveLength(1);
  }, 240_000);
});

/** The outbox folder's rights and the distinct rights of the mail in it (at least one mail). */
function privateModes(folder: string): { folder: number; files: number[] } {
  const mails = fs.readdirSync(folder).filter((name) => name.endsWith('.eml'));
  expect(mails.length, folder).toBeGreaterThan(0);
  return { folder: fs.statSync(folder).mode & 0o777, files: [...new Set(mails.map((name) => fs.statSync(path.join(folder, name)).mode & 0o777))] };
}

/** The same database server as DATABASE_URL, another database on it. */
function databaseNamed(name: string): string {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

async function postgresDigests(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`set time zone 'UTC'`);
    return await tableDigests(async <T>(text: string) => (await client.query(text)).rows as T[]);
  } finally {
    await client.end();
  }
}

describe.skipIf(!process.env.DATABASE_URL)('backups of a shop on PostgreSQL', () => {
  it('are made by pg_dump in one snapshot with the shop taking orders, restore into an empty database, and a damaged file changes nothing', async () => {
    await buildServer();
    const names = { source: `mango_backup_source_${process.pid}`, target: `mango_backup_target_${process.pid}` };
    const server = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await server.connect();
    for (const name of Object.values(names)) await server.query(`drop database if exists ${name}`).then(() => server.query(`create database ${name}`));
    try {
      const source = databaseNamed(names.source);
      const target = databaseNamed(names.target);
      const dataDir = path.join(root, 'postgres-shop');
      const shop = await startShop({ DATABASE_URL: source, DATA_DIR: dataDir, ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password });
      running.push(shop);
      const picture = await uploadPicture(shop.url, await signInAdmin(shop.url), { r: 240, g: 160, b: 20 });
      const box = (await products(shop.url)).filter((p) => !p.isPreOrder).sort((a, b) => b.stock - a.stock)[0]!;
      const buyers = await shoppers(shop.url, 4, 'pg-backed-up');
      let stop = false;
      let placed = 0;
      const load = Promise.all(
        buyers.map(async (buyer) => {
          for (let orders = 0; orders < 8 && !stop; orders += 1) {
            await buyer.addToCart(box.id, 1);
            const outcome = await buyer.placeOrder();
            if ('status' in outcome && outcome.status === 201) placed += 1;
            else expect(outcome).toMatchObject({ status: 409 });
          }
        }),
      );
      while (placed < 3) await new Promise((resolve) => setTimeout(resolve, 50));
      const file = path.join(root, 'postgres.tar');
      const backup = await ownerCommand('backup', [file], dataDir, source);
      stop = true;
      await load;
      expect(backup.output).toMatch(/Wrote a backup of PostgreSQL, with pg_dump/);
      expect(backup.code).toBe(0);
      const { manifest } = readArchive(fs.readFileSync(file));
      expect(manifest.kind).toBe('postgres');
      expect(manifest.tables['public.orders']!.rows).toBeGreaterThanOrEqual(3);

      const restore = await ownerCommand('restore', [file], path.join(root, 'postgres-restored'), target);
      expect(restore.output).toMatch(/Restored the backup made .* into the PostgreSQL database at DATABASE_URL/);
      expect(restore.code).toBe(0);
      expect(await postgresDigests(target)).toEqual(manifest.tables);

      const restored = await startShop({ DATABASE_URL: target, DATA_DIR: path.join(root, 'postgres-restored') });
      running.push(restored);
      const [a, b] = await Promise.all([fetch(`${shop.url}${picture}`), fetch(`${restored.url}${picture}`)]);
      expect(b.status).toBe(200);
      expect(Buffer.from(await b.arrayBuffer()).equals(Buffer.from(await a.arrayBuffer()))).toBe(true);
      await stopShop(restored);
      await stopShop(shop);

      const refused = await ownerCommand('restore', [file], dataDir, target);
      expect(refused.code).toBe(1);
      expect(refused.output).toMatch(/The database at DATABASE_URL is not empty.*--force/);
      const corrupt = path.join(root, 'postgres-corrupt.tar');
      const damaged = Buffer.from(fs.readFileSync(file));
      damaged.write('mango', Math.floor(damaged.length / 2));
      fs.writeFileSync(corrupt, damaged);
      const before = await postgresDigests(target);
      const bad = await ownerCommand('restore', [corrupt, '--force'], dataDir, target);
      expect(bad.code).toBe(1);
      expect(bad.output).toMatch(/The backup is damaged: .* does not match its checksum/);
      expect(await postgresDigests(target)).toEqual(before);

      // Forced over a database a newer release changed (a table the backup does not have, rows
      // since): it ends exactly as the backup was, and a restore that fails its check changes nothing.
      const changed = new pg.Client({ connectionString: target });
      await changed.connect();
      await changed.query('create table newer_release_table (id integer primary key)');
      await changed.query(`update products set stock = stock + 1`);
      await changed.end();
      const forced = await ownerCommand('restore', [file, '--force'], dataDir, target);
      expect(forced.output).toMatch(/Restored the backup made/);
      expect(forced.code).toBe(0);
      expect(await postgresDigests(target)).toEqual(manifest.tables);

      const lying = path.join(root, 'postgres-lying.tar');
      const { members } = readArchive(fs.readFileSync(file));
      const wrongCount = { ...manifest, tables: { ...manifest.tables, 'public.orders': { ...manifest.tables['public.orders']!, rows: 999 } } };
      const { files: _files, ...rest } = wrongCount;
      const rewritten = writeArchive(rest, [...members].filter(([name]) => name !== 'mango-backup.json').map(([name, bytes]) => ({ name, bytes })));
      fs.writeFileSync(lying, Buffer.concat(rewritten.parts));
      const beforeLie = await postgresDigests(target);
      const mismatch = await ownerCommand('restore', [lying, '--force'], dataDir, target);
      expect(mismatch.code).toBe(1);
      expect(mismatch.output).toMatch(/did not match the backup in public\.orders \(backup: 999 rows, restored: \d+ rows\): the restore was rolled back/);
      expect(await postgresDigests(target)).toEqual(beforeLie);
    } finally {
      for (const name of Object.values(names)) await server.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
      await server.end();
    }
  }, 240_000);
});
