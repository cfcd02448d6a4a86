/**
 * npm run dev: the shop on PORT with reload. The server restarts when its code changes (tsx
 * watch); the pages are rendered and hot-reloaded by Vite running inside it (WEB_DEV=vite,
 * src/server/main.ts), so the shop is one origin at http://localhost:PORT.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = process.env.PORT ?? '3000';

const server = spawn(path.join(root, 'node_modules', '.bin', 'tsx'), ['watch', '--clear-screen=false', '--exclude', 'src/web/**', 'src/server/main.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PORT: port, WEB_DEV: 'vite', NODE_ENV: 'development', PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${port}` },
});
server.on('exit', (code) => process.exit(code ?? 0));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
