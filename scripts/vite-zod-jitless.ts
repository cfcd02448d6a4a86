import type { Plugin } from 'vite';

const shimId = '\0mango-zod-jitless';

/**
 * Zod compiles a fast parser with `new Function` unless told not to, and it probes whether it may
 * the first time a schema is built. Our pages forbid eval in their Content-Security-Policy, so in
 * the browser the probe fails quietly and Chrome still reports the violation (Lighthouse's best
 * practices lose points for it). Every browser import of `zod` goes through a module that turns
 * Zod's compiler off before any page code builds a schema; the server keeps the compiled parsers.
 */
export function zodJitless(): Plugin {
  return {
    name: 'mango-zod-jitless',
    enforce: 'pre',
    // The dev server's scan of dependencies does not follow the shim: zod is named here so it is
    // bundled up front, not found later with a reload.
    config: () => ({ optimizeDeps: { include: ['zod'] } }),
    resolveId(source, importer, options) {
      if (source !== 'zod' || options.ssr || importer === shimId) return null;
      return shimId;
    },
    load(id) {
      if (id !== shimId) return null;
      return ["import { config } from 'zod';", 'config({ jitless: true });', "export * from 'zod';", "export { default } from 'zod';"].join('\n');
    },
  };
}
