import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server';

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mango-server-build-'));
const outDir = path.join(workDir, 'dist', 'server');

afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

/**
 * Looks for what a server starting now would load, as often as it can, on a thread of its own: the
 * build swaps folders with synchronous calls, which no check on the building thread can fall between.
 */
function watchForGaps(dir: string) {
  const stop = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(
    `const fs = require('node:fs');
    const { workerData, parentPort } = require('node:worker_threads');
    const stop = new Int32Array(workerData.stop);
    let looks = 0, missing = 0;
    while (Atomics.load(stop, 0) === 0) {
      looks += 1;
      if (!fs.existsSync(workerData.dir + '/main.js') || !fs.existsSync(workerData.dir + '/migrations/meta/_journal.json')) missing += 1;
    }
    parentPort.postMessage({ looks, missing });`,
    { eval: true, workerData: { dir, stop: stop.buffer } },
  );
  const counted = new Promise<{ looks: number; missing: number }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    async stop() {
      Atomics.store(stop, 0, 1);
      const counts = await counted;
      await worker.terminate();
      return counts;
    },
  };
}

describe('a rebuild of the server', () => {
  it('never leaves a moment without a whole build, and keeps the build it replaced for servers started from it', async () => {
    // A build from before builds were linked: a folder of its own at dist/server.
    fs.mkdirSync(outDir, { recursive: true });
    fs.writeFileSync(path.join(outDir, 'main.js'), '// an earlier build\n');
    await buildServer(outDir);
    const first = fs.realpathSync(outDir);
    expect(fs.lstatSync(outDir).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(path.join(outDir, 'main.js'), 'utf8')).not.toBe('// an earlier build\n');
    const unlinked = fs.readdirSync(path.dirname(outDir)).filter((name) => name.startsWith('server.') && name !== path.basename(first));
    expect(unlinked).toHaveLength(1);

    const watcher = watchForGaps(outDir);
    try {
      await buildServer(outDir);
    } finally {
      const { looks, missing } = await watcher.stop();
      expect(looks).toBeGreaterThan(1000);
      expect(missing).toBe(0);
    }

    const second = fs.realpathSync(outDir);
    expect(second).not.toBe(first);
    // A server that started from the first build still finds its migrations and seed pages.
    expect(fs.existsSync(path.join(first, 'migrations', 'meta', '_journal.json'))).toBe(true);
    expect(fs.existsSync(path.join(first, 'content'))).toBe(true);
    expect(fs.existsSync(path.join(path.dirname(outDir), unlinked[0]!))).toBe(false);
    // Both sit where main.js finds the project two folders up.
    expect(path.dirname(second)).toBe(path.dirname(outDir));

    // Builds older than the one replaced are removed.
    await buildServer(outDir);
    expect(fs.existsSync(first)).toBe(false);
    expect(fs.existsSync(second)).toBe(true);
    expect(fs.readdirSync(path.dirname(outDir)).filter((name) => name.startsWith('server')).sort()).toHaveLength(3);
  }, 180_000);
});
