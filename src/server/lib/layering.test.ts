import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));

describe('server/lib', () => {
  it('depends on nothing above it: no file imports the modules or the app', () => {
    const reachingUp: string[] = [];
    for (const name of fs.readdirSync(here)) {
      if (!/\.tsx?$/.test(name) || /[.-]test\.tsx?$/.test(name)) continue;
      const text = fs.readFileSync(path.join(here, name), 'utf8');
      for (const [, target] of text.matchAll(/(?:from|import)\s*\(?\s*'(\.\.\/(?:modules|app|main)[^']*)'/g)) reachingUp.push(`${name} → ${target}`);
    }
    expect(reachingUp).toEqual([]);
  });
});
