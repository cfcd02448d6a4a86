import fs from 'node:fs';
import path from 'node:path';
import { createElement, type ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { iconFiles } from '../../../../scripts/vite-lucide-icons';
import createLucideIcon from './lucide-icon';

const root = path.resolve(import.meta.dirname, '..', '..', '..', '..');
const iconsDir = path.join(root, 'node_modules', 'lucide-react', 'dist', 'esm');

/** The icons the web app imports. */
function usedIcons(files: Map<string, string>): string[] {
  const used = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.tsx?$/.test(entry.name)) {
        for (const [, list] of fs.readFileSync(file, 'utf8').matchAll(/import\s*\{([^}]*)\}\s*from\s*'lucide-react'/g)) {
          for (const part of list!.split(',')) {
            const name = part.trim().split(/\s+as\s+/)[0]!;
            if (files.has(name)) used.add(name);
          }
        }
      }
    }
  };
  walk(path.join(root, 'src', 'web'));
  return [...used].sort();
}

const propSets: Array<Record<string, unknown>> = [
  {},
  { className: 'size-4', 'aria-hidden': 'true' },
  { size: 20, strokeWidth: 1.5, className: 'mt-px shrink-0 text-mango-700' },
  { 'aria-label': 'Close' },
  { width: 16, height: 18, color: 'red', absoluteStrokeWidth: true, size: 48 },
];

describe('the shop-drawn lucide icon', () => {
  it('draws every icon the shop uses as lucide-react draws it, for the props the shop passes', async () => {
    const files = iconFiles();
    const used = usedIcons(files);
    expect(used.length).toBeGreaterThan(40);
    for (const name of used) {
      const module = (await import(path.join(iconsDir, 'icons', files.get(name)!))) as { default: ComponentType; __iconData: Parameters<typeof createLucideIcon>[0] };
      const ours = createLucideIcon(module.__iconData) as ComponentType;
      for (const props of propSets) {
        expect(renderToStaticMarkup(createElement(ours, props)), `${name} ${JSON.stringify(props)}`).toBe(renderToStaticMarkup(createElement(module.default, props)));
      }
    }
  });
});
