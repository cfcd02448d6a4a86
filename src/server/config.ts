import path from 'node:path';
import { z } from 'zod';
import { isAddressOrBlock } from './lib/client-address';

const flag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'use true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const count = (fallback: number) => z.coerce.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be at least 1').default(fallback);

/** Every environment variable the shop reads, with its default; README's configuration table mirrors it. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// (leave it unset for the embedded database)')
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  PUBLIC_URL: z.url({ error: 'must be a full URL such as https://shop.example.nz' }).optional(),
  ALLOWED_ORIGINS: z.string().default(''),
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value, context) => {
      const text = value.trim().toLowerCase();
      if (['false', 'no', '0'].includes(text)) return false;
      if (/^\d{1,2}$/.test(text)) return Number(text);
      const addresses = text.split(',').map((part) => part.trim()).filter(Boolean);
      if (!['true', 'yes'].includes(text) && addresses.length && addresses.every(isAddressOrBlock)) return addresses;
      context.addIssue({
        code: 'custom',
        message:
          'use the number of proxies in front of the shop (1 for one load balancer) or their addresses (10.0.0.1, 10.0.0.0/8), or false: trusting every hop lets clients choose their own address',
      });
      return z.NEVER;
    }),
  COOKIE_SECURE: z.enum(['auto', 'true', 'false'], { error: 'use auto, true or false' }).default('auto'),
  SESSION_TTL_DAYS: count(30),
  SHUTDOWN_TIMEOUT_SECONDS: count(20),
  REQUEST_TIMEOUT_SECONDS: count(120),
  BODY_IDLE_SECONDS: count(20),
  UPLOADS_AT_ONCE: count(8),
  ORDERS_AT_ONCE: count(120),
  ORDERS_ANSWER_WITHIN_MS: count(1500),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['auto', 'readable', 'json'], { error: 'use auto, readable or json' }).default('auto'),
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_EVERY_HOURS: count(24),
  BACKUP_KEEP: count(7),
  METRICS_TOKEN: z.string().min(16, 'use at least 16 characters: it is the only thing guarding /metrics').optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
  MAIL_FROM: z.string().default('Mango Shop <hello@mangoshop.co.nz>'),
  MAIL_RETRY_SECONDS: count(30),
  ADMIN_EMAIL: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  SEED_ON_EMPTY: flag.default(true),
  LOGIN_FAILS_PER_ACCOUNT: count(10),
  LOGIN_FAILS_PER_IP: count(50),
  LOGIN_WINDOW_MINUTES: count(15),
  REGISTRATIONS_PER_IP_PER_HOUR: count(60),
  FORGOT_PASSWORD_PER_EMAIL_PER_HOUR: count(5),
  FORGOT_PASSWORD_PER_IP_PER_HOUR: count(30),
  RESET_PASSWORD_PER_IP_PER_HOUR: count(30),
  ORDERS_PER_USER_PER_HOUR: count(30),
  STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_\w+$/, 'must be a Stripe secret key (sk_...)').optional(),
  STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_\w+$/, 'must be a Stripe webhook signing secret (whsec_...)').optional(),
  // Stripe's SDK takes a scheme, host and port, not a base URL.
  STRIPE_API_URL: z
    .url({ protocol: /^https?$/, error: 'must be a full http(s) URL' })
    .refine((url) => /^https?:\/\/[^/?#]+\/?$/.test(url), 'must be a scheme, host and port only, such as https://api.stripe.com')
    .default('https://api.stripe.com'),
  CACHE_S_MAXAGE_SECONDS: count(300),
  CACHE_STALE_SECONDS: count(30),
  VARNISH_URL: z
    .string()
    .optional()
    .refine((text) => !text || text.split(',').every((part) => /^https?:\/\/[^/?#\s]+\/?$/.test(part.trim())), 'must be the addresses of Varnish, such as http://127.0.0.1:6081 (several with commas)'),
  CACHE_PURGE_URL: z.url({ protocol: /^https?$/, error: 'must be a full http(s) URL' }).optional(),
  CACHE_PURGE_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]+:\s*\S.*$/, 'must be one header line, such as "Authorization: Bearer <token>"')
    .optional(),
  // Tests only: the instant the shop's clock starts from (it runs on from there), for delivery dates.
  SHOP_CLOCK_START: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 instant such as 2026-12-03T19:30:00+13:00' }).optional(),
});

export type Env = z.output<typeof envSchema>;

export interface AppConfig {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  publicUrl: string | undefined;
  allowedOrigins: string[];
  /** Proxies whose X-Forwarded-For is believed: none, how many hops, or their addresses. */
  trustProxy: false | number | string[];
  cookieSecure: 'auto' | 'always' | 'never';
  sessionTtlMs: number;
  /** After SIGTERM, how long the process may finish its work before it exits anyway. */
  shutdownTimeoutMs: number;
  /** A request whose headers and body have not all arrived in this time is answered 408. */
  requestTimeoutMs: number;
  /** An upload that sends nothing for this long is given up (408). */
  bodyIdleMs: number;
  /** Photo uploads (claims) the whole shop reads at once; each account has at most two. */
  uploadsAtOnce: number;
  /** Order placements one process takes at once; more are answered 429 at once, to be retried. */
  ordersAtOnce: number;
  /** Placements are let in as many at once as the database answers in about this long. */
  ordersAnswerWithinMs: number;
  logLevel: Env['LOG_LEVEL'];
  /** auto: readable lines on a terminal, JSON lines otherwise and whenever NODE_ENV=production was set. */
  logFormat: Env['LOG_FORMAT'];
  /** Embedded database only: the shop backs itself up into `dir` every `everyMs`, keeping the latest `keep`. */
  backups: { dir: string; everyMs: number; keep: number } | undefined;
  /** The bearer token `GET /metrics` asks for; unset, /metrics is off (404). */
  metricsToken: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** The pause after a mail's first failed delivery; it doubles with each further failure. */
  mailRetryMs: number;
  admin: { email: string; password: string } | undefined;
  seedOnEmpty: boolean;
  limits: {
    loginFailsPerAccount: number;
    loginFailsPerIp: number;
    loginWindowMs: number;
    registrationsPerIpPerHour: number;
    forgotPasswordPerEmailPerHour: number;
    forgotPasswordPerIpPerHour: number;
    resetPasswordPerIpPerHour: number;
    ordersPerUserPerHour: number;
  };
  /** Card payments through Stripe Checkout; bank transfer only when unset. */
  stripe: { secretKey: string; webhookSecret: string; apiUrl: string } | undefined;
  /** The shared HTTP cache in front (docs/shared-cache.md): how long it keeps visitors' pages, and whom to tell of changes. */
  sharedCache: SharedCacheConfig;
  /** Tests only: the instant the shop's clock started from, or undefined for the real time. */
  clockStart?: Date;
}

export interface SharedCacheConfig {
  /** s-maxage of a visitor's page or public answer, at most (a coming opening makes it shorter). */
  sMaxAgeSeconds: number;
  /** stale-while-revalidate: how long past it a shared cache may answer while it asks again. */
  staleSeconds: number;
  /** Varnish instances told to purge by key (xkey). */
  varnishUrls: string[];
  /** A CDN's tag purge: one POST with the tags; with the header line, for its token. */
  purgeUrl: string | undefined;
  purgeHeader: { name: string; value: string } | undefined;
}

export class ConfigError extends Error {}

/** Reads the environment once at start; a bad value stops start-up with one line per problem. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const blankAsUnset = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ''));
  const parsed = envSchema.safeParse(blankAsUnset);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  if (Boolean(env.ADMIN_EMAIL) !== Boolean(env.ADMIN_PASSWORD)) {
    throw new ConfigError('Invalid configuration:\n  ADMIN_EMAIL and ADMIN_PASSWORD: set both or neither');
  }
  if (Boolean(env.STRIPE_SECRET_KEY) !== Boolean(env.STRIPE_WEBHOOK_SECRET)) {
    throw new ConfigError('Invalid configuration:\n  STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET: set both or neither');
  }
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    databaseUrl: env.DATABASE_URL,
    dataDir: path.resolve(env.DATA_DIR),
    publicUrl: env.PUBLIC_URL?.replace(/\/$/, ''),
    allowedOrigins: env.ALLOWED_ORIGINS.split(',').map((o) => o.trim().replace(/\/$/, '')).filter(Boolean),
    trustProxy: env.TRUST_PROXY,
    cookieSecure: env.COOKIE_SECURE === 'auto' ? 'auto' : env.COOKIE_SECURE === 'true' ? 'always' : 'never',
    sessionTtlMs: env.SESSION_TTL_DAYS * 24 * 60 * 60 * 1000,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    requestTimeoutMs: env.REQUEST_TIMEOUT_SECONDS * 1000,
    bodyIdleMs: env.BODY_IDLE_SECONDS * 1000,
    uploadsAtOnce: env.UPLOADS_AT_ONCE,
    ordersAtOnce: env.ORDERS_AT_ONCE,
    ordersAnswerWithinMs: env.ORDERS_ANSWER_WITHIN_MS,
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT,
    backups: env.BACKUP_DIR ? { dir: path.resolve(env.BACKUP_DIR), everyMs: env.BACKUP_EVERY_HOURS * 60 * 60 * 1000, keep: env.BACKUP_KEEP } : undefined,
    metricsToken: env.METRICS_TOKEN,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    mailRetryMs: env.MAIL_RETRY_SECONDS * 1000,
    admin: env.ADMIN_EMAIL && env.ADMIN_PASSWORD ? { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD } : undefined,
    seedOnEmpty: env.SEED_ON_EMPTY,
    limits: {
      loginFailsPerAccount: env.LOGIN_FAILS_PER_ACCOUNT,
      loginFailsPerIp: env.LOGIN_FAILS_PER_IP,
      loginWindowMs: env.LOGIN_WINDOW_MINUTES * 60 * 1000,
      registrationsPerIpPerHour: env.REGISTRATIONS_PER_IP_PER_HOUR,
      forgotPasswordPerEmailPerHour: env.FORGOT_PASSWORD_PER_EMAIL_PER_HOUR,
      forgotPasswordPerIpPerHour: env.FORGOT_PASSWORD_PER_IP_PER_HOUR,
      resetPasswordPerIpPerHour: env.RESET_PASSWORD_PER_IP_PER_HOUR,
      ordersPerUserPerHour: env.ORDERS_PER_USER_PER_HOUR,
    },
    stripe:
      env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET
        ? { secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET, apiUrl: env.STRIPE_API_URL.replace(/\/$/, '') }
        : undefined,
    sharedCache: {
      sMaxAgeSeconds: env.CACHE_S_MAXAGE_SECONDS,
      staleSeconds: env.CACHE_STALE_SECONDS,
      varnishUrls: (env.VARNISH_URL ?? '').split(',').map((part) => part.trim().replace(/\/$/, '')).filter(Boolean),
      purgeUrl: env.CACHE_PURGE_URL,
      purgeHeader: env.CACHE_PURGE_HEADER ? headerLine(env.CACHE_PURGE_HEADER) : undefined,
    },
    clockStart: env.SHOP_CLOCK_START ? new Date(env.SHOP_CLOCK_START) : undefined,
  };
}

function headerLine(line: string): { name: string; value: string } {
  const colon = line.indexOf(':');
  return { name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() };
}
