import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite } from '../db/client';
import { seedShop } from '../db/seed/seed-shop';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

interface RunTemplate {
  made: Promise<{ dir: string; file: string }>;
  users: number;
}

/**
 * The template of this run, made once however many projects ask for it. Each project loads this
 * file through a module runner of its own, so the promise is kept on the global object.
 */
const runTemplateKey = Symbol.for('mango-shop.test-template');
const shared = globalThis as typeof globalThis & { [runTemplateKey]?: RunTemplate };

async function makeTemplate(): Promise<{ dir: string; file: string }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mango-test-'));
  const file = path.join(dir, 'template.tar');
  if (!process.env.DATABASE_URL) {
    const database = await openPglite(undefined);
    await database.migrate(seedShop);
    const dump = await database.dump!();
    await fs.writeFile(file, Buffer.from(await dump.arrayBuffer()));
    await database.close();
  }
  return { dir, file };
}

/**
 * Creating a PGlite database takes seconds here, loading a dump half a second: one migrated and
 * seeded template is made per run and every test file starts from its own copy of it.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const run = (shared[runTemplateKey] ??= { made: makeTemplate(), users: 0 });
  run.users += 1;
  const { dir, file } = await run.made;
  project.provide('pgliteTemplate', file);
  return async () => {
    run.users -= 1;
    if (run.users > 0) return;
    delete shared[runTemplateKey];
    await fs.rm(dir, { recursive: true, force: true });
  };
}
