import { defineConfig } from 'vitest/config';

/**
 * Files that replace a module (`vi.mock`) or reload modules (`vi.resetModules`) need a module graph
 * of their own: a shared one has already loaded the real module, and a reload would make the next
 * file load everything again. Name them `*.isolated-test.ts`.
 */
const isolatedFiles = ['src/**/*.isolated-test.ts', 'src/**/*.isolated-test.tsx'];
const testFiles = ['src/**/*.test.ts', 'src/**/*.test.tsx'];

export default defineConfig({
  test: {
    environment: 'node',
    globalSetup: ['src/server/testing/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: two files at a time, each with its own database.
    maxWorkers: 2,
    projects: [
      // Each file builds its own shop and database; what they share is the code, loaded once per
      // worker instead of once per file (docs/decisions/0041-tests-share-loaded-code.md).
      { extends: true, test: { name: 'shared', isolate: false, include: testFiles } },
      { extends: true, test: { name: 'isolated', include: isolatedFiles } },
    ],
  },
});
