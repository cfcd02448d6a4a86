import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../db/client';
import { readArchive } from './backup-archive';
import { makeBackup } from './backup';
import { backupFileName, ScheduledBackups } from './scheduled-backups';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mango-scheduled-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('scheduled backups of the embedded database', () => {
  it('write a whole backup each time, keep the latest N, delete only their own files, and log each one', async () => {
    const database = await openPglite(undefined);
    await database.migrate();
    const lines: Array<{ message: string; fields: Record<string, unknown> }> = [];
    const log = { info: (fields: object, message: string) => lines.push({ message, fields: fields as Record<string, unknown> }), error: (fields: object, message: string) => lines.push({ message, fields: fields as Record<string, unknown> }) };
    const folder = path.join(dir, 'backups');
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'notes.txt'), 'the owner keeps this here');
    let now = new Date('2026-11-27T01:00:00Z');
    const backups = new ScheduledBackups(() => makeBackup({ database, dataDir: dir }), { dir: folder, everyMs: 3_600_000, keep: 2 }, log, () => now);
    for (let i = 0; i < 3; i += 1) {
      await backups.runOnce();
      now = new Date(now.getTime() + 3_600_000);
    }
    await backups.stop();
    await database.close();

    expect(fs.readdirSync(folder).sort()).toEqual(['mango-backup-20261127T020000Z.tar', 'mango-backup-20261127T030000Z.tar', 'notes.txt']);
    const { manifest } = readArchive(fs.readFileSync(path.join(folder, backupFileName(new Date('2026-11-27T03:00:00Z')))));
    expect(manifest.kind).toBe('pglite');
    expect(Object.keys(manifest.tables)).toContain('public.orders');
    expect(lines.map((line) => line.message)).toEqual(['backed up the shop', 'backed up the shop', 'backed up the shop']);
    expect(lines[2]!.fields).toMatchObject({ file: path.join(folder, 'mango-backup-20261127T030000Z.tar'), kept: 2, deleted: 1 });
  }, 60_000);

  it('log a failed backup and leave no partial file', async () => {
    const folder = path.join(dir, 'failing');
    const errors: string[] = [];
    const backups = new ScheduledBackups(() => Promise.reject(new Error('disk full')), { dir: folder, everyMs: 3_600_000, keep: 2 }, { info: () => undefined, error: (_fields, message) => errors.push(message) });
    backups.start();
    await backups.runOnce();
    await backups.stop();
    expect(errors).toEqual(['the scheduled backup failed']);
    expect(fs.readdirSync(folder)).toEqual([]);
  });
});
