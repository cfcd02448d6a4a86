import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './scripts/vite-precompress.ts';

const apiPort = Number(process.env.API_PORT ?? 3001);

/** The web app lives in src/web and builds to dist/web, which the server serves. */
export default defineConfig({
  root: fileURLToPath(new URL('./src/web', import.meta.url)),
  publicDir: fileURLToPath(new URL('./public', import.meta.url)),
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
  },
  server: {
    port: Number(process.env.PORT ?? 3000),
    strictPort: true,
    // One origin for people changing the shop: the API (on API_PORT) is proxied under /api.
    proxy: {
      '/api': { target: `http://127.0.0.1:${apiPort}` },
      '/healthz': { target: `http://127.0.0.1:${apiPort}` },
    },
  },
});
