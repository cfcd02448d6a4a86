import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const compressible = /\.(js|css|html|svg|json|txt|xml|webmanifest)$/;

/**
 * Writes .br and .gz beside every text file of the build, so the server sends compressed files
 * without compressing on each request (@fastify/static's preCompressed option).
 */
export function precompress(): Plugin {
  let outDir = '';
  let ssrBuild = false;
  return {
    name: 'mango-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
      // React Router builds twice: the browser's files are compressed, the server bundle is not.
      ssrBuild = Boolean(config.build.ssr);
    },
    async closeBundle() {
      if (ssrBuild) return;
      const files = (await fs.readdir(outDir, { recursive: true })).filter((f) => compressible.test(f));
      await Promise.all(
        files.map(async (file) => {
          const full = path.join(outDir, file);
          const source = await fs.readFile(full);
          if (source.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(source, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
            gzip(source, { level: 9 }),
          ]);
          await Promise.all([fs.writeFile(`${full}.br`, br), fs.writeFile(`${full}.gz`, gz)]);
        }),
      );
    },
  };
}
