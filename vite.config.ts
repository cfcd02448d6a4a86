import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import { frameChunks } from './scripts/vite-frame-chunk.ts';
import { lucideIconModules } from './scripts/vite-lucide-icons.ts';
import { precompress } from './scripts/vite-precompress.ts';
import { zodJitless } from './scripts/vite-zod-jitless.ts';

/**
 * The web app (src/web, see react-router.config.ts) builds to dist/web/client (browser assets,
 * public/ copied in) and dist/web/server (the server build Fastify renders pages with). In
 * development the server runs Vite in middleware mode (scripts/dev.ts), so there is no proxy.
 */
export default defineConfig({
  // Vite's root is the project root now: React Router finds react-router.config.ts there and
  // public/ is the default publicDir.
  plugins: [zodJitless(), lucideIconModules(), tailwindcss(), reactRouter(), precompress()],
  build: {
    target: 'es2022',
    assetsInlineLimit: 0,
    rollupOptions: {
      // What every page loads goes in one file instead of thirty small ones (decision 0032).
      output: { codeSplitting: { groups: frameChunks() } },
      onLog(level, log, handler) {
        // The sign-in forms belong to the /auth page's code, which the sign-in dialog loads when it
        // first opens: the split we want, which the bundler reports as an ineffective dynamic import.
        if (log.code === 'INEFFECTIVE_DYNAMIC_IMPORT' && log.message.includes('features/auth/auth-panel.tsx')) return;
        handler(level, log);
      },
    },
  },
});
