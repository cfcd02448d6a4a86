import type { Config } from '@react-router/dev/config';

/**
 * Framework mode (decision 0013): the route modules live in src/web; the build goes to
 * dist/web/client (the browser's files) and dist/web/server (the page renderer Fastify loads).
 */
export default {
  appDirectory: 'src/web',
  buildDirectory: 'dist/web',
  ssr: true,
  future: {
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    v8_passThroughRequests: true,
    v8_trailingSlashAwareDataRequests: true,
  },
} satisfies Config;
