import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/**
 * `import { Camera } from 'lucide-react'` names the package's index, which imports every icon it
 * has. The bundler keeps only the icons used, but a chunking rule that follows imports (the page
 * frame's, scripts/vite-frame-chunk.ts) sees all of them and put the admin's icons on every page.
 * Each named icon is imported from its own module instead, so the module graph says which page
 * uses which icon. Types and anything not an icon still come from the index. Each icon then draws
 * through src/web/components/ui/lucide-icon.ts.
 */
export function lucideIconModules(): Plugin {
  let files: Map<string, string> | undefined;
  const ownIcon = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src', 'web', 'components', 'ui', 'lucide-icon.ts');
  return {
    name: 'mango-lucide-icon-modules',
    enforce: 'pre',
    // The dev server loads modules one by one and has no chunks to keep apart.
    apply: 'build',
    // Each icon's module draws through the shop's own lucide-icon.ts, not lucide-react's component.
    resolveId(source, importer) {
      if (source === '../createLucideIcon.mjs' && importer && /[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]/.test(importer)) return ownIcon;
      return null;
    },
    transform(code, id) {
      // Route modules are also read in parts, as `route.tsx?route-chunk=...`.
      if (!/\.tsx?$/.test(id.split('?')[0]!) || id.includes('node_modules') || !code.includes('lucide-react')) return null;
      files ??= iconFiles();
      const icons = files;
      let changed = false;
      const result = code.replace(/^import\s*\{([^}]*)\}\s*from\s*['"]lucide-react['"];?/gm, (whole, list: string) => {
        const names = list.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
        const types: string[] = [];
        const values: string[] = [];
        const own: string[] = [];
        for (const part of names.split(',').map((name) => name.trim()).filter(Boolean)) {
          if (part.startsWith('type ')) {
            types.push(part.slice(5).trim());
            continue;
          }
          const [imported, local = imported] = part.split(/\s+as\s+/).map((name) => name.trim());
          const file = icons.get(imported!);
          if (file) own.push(`import ${local} from 'lucide-react/dist/esm/icons/${file}';`);
          else values.push(part);
        }
        if (own.length === 0) return whole;
        changed = true;
        // Only types left: a type import, so the index is not imported for nothing.
        const rest = values.length > 0 ? [`import { ${[...values, ...types.map((name) => `type ${name}`)].join(', ')} } from 'lucide-react';`] : types.length > 0 ? [`import type { ${types.join(', ')} } from 'lucide-react';`] : [];
        // As many lines as before: the rest of the file keeps its line numbers.
        return [...own, ...rest].join(' ') + '\n'.repeat(whole.split('\n').length - 1);
      });
      return changed ? { code: result, map: null } : null;
    },
  };
}

/** Every name the package's index gives an icon under, and that icon's own module file. */
export function iconFiles(): Map<string, string> {
  const require = createRequire(import.meta.url);
  const index = path.join(path.dirname(require.resolve('lucide-react/package.json')), 'dist', 'esm', 'lucide-react.mjs');
  const files = new Map<string, string>();
  for (const [, names, file] of fs.readFileSync(index, 'utf8').matchAll(/export \{([^}]*)\} from '\.\/icons\/([\w-]+\.mjs)';/g)) {
    for (const name of names!.split(',')) {
      const alias = /default as (\w+)/.exec(name.trim());
      if (alias) files.set(alias[1]!, file!);
    }
  }
  if (files.size < 100) throw new Error(`lucide-react's index named only ${files.size} icons: has its layout changed?`);
  return files;
}
