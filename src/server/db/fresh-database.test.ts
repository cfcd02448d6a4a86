import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyFreshDatabase } from './fresh-database';

const folders: string[] = [];
function folder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mango-fresh-'));
  folders.push(dir);
  return dir;
}

function template(): string {
  const dir = path.join(folder(), 'template');
  fs.mkdirSync(path.join(dir, 'base'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'PG_VERSION'), '17\n');
  fs.writeFileSync(path.join(dir, 'base', '1'), 'catalog');
  return dir;
}

afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('copyFreshDatabase', () => {
  it('copies the template into a data folder that does not exist yet, leaving no partial copy', () => {
    const dataDir = path.join(folder(), 'pglite');
    expect(copyFreshDatabase(template(), dataDir)).toBe(true);
    expect(fs.readFileSync(path.join(dataDir, 'base', '1'), 'utf8')).toBe('catalog');
    expect(fs.existsSync(`${dataDir}.partial`)).toBe(false);
  });

  it('copies into an empty folder, and replaces a partial copy a start that died left behind', () => {
    const dataDir = path.join(folder(), 'pglite');
    fs.mkdirSync(dataDir);
    fs.mkdirSync(`${dataDir}.partial`);
    fs.writeFileSync(path.join(`${dataDir}.partial`, 'half'), '');
    expect(copyFreshDatabase(template(), dataDir)).toBe(true);
    expect(fs.readdirSync(dataDir).sort()).toEqual(['PG_VERSION', 'base']);
  });

  it('leaves a folder that holds anything alone', () => {
    const dataDir = folder();
    fs.writeFileSync(path.join(dataDir, 'PG_VERSION'), '17\n');
    expect(copyFreshDatabase(template(), dataDir)).toBe(false);
    expect(fs.readdirSync(dataDir)).toEqual(['PG_VERSION']);
  });

  it('does nothing without a built template (running from the sources)', () => {
    const dataDir = path.join(folder(), 'pglite');
    expect(copyFreshDatabase(path.join(folder(), 'missing'), dataDir)).toBe(false);
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});
