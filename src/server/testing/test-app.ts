import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../app';
import { type AppConfig, loadConfig } from '../config';
import { type Database, openPglite } from '../db/client';
import { seedShop } from '../db/seed/seed-shop';
import { deliverySettings } from '../db/schema';
import { defaultDeliverySettings } from '../../contracts/delivery';
import { ensureAdmin } from '../modules/auth/admin-accounts';
import type { PurgeTiming } from '../lib/cache-purge';
import { type MailMessage, MemoryMailer } from '../lib/mail';
import { newServerDatabase } from './empty-database';

export interface TestShop {
  app: FastifyInstance;
  database: Database;
  mailer: MemoryMailer;
  /** Delivers what waits in the outbox, then answers every mail delivered so far. */
  mail(): Promise<MailMessage[]>;
  config: AppConfig;
  /** The test database's URL when it lives on a PostgreSQL server. */
  databaseUrl?: string;
  close(): Promise<void>;
}

/**
 * A whole shop on its own seeded database: a copy of the PGlite template, or, when DATABASE_URL is
 * set (CI's PostgreSQL run), a new database on that server, dropped afterwards.
 */
export interface TestShopOptions {
  /** The delivery clock (cut-off, holidays); the real time when absent. */
  clock?: () => Date;
  /**
   * Boxes per dispatch day: a test shop packs 100000 unless told otherwise, so tests about other
   * things never meet a full day; null keeps the shop's own defaults (40).
   */
  deliveryCapacity?: number | null;
  purgeTiming?: PurgeTiming;
}

export async function createTestShop(env: Record<string, string> = {}, options: TestShopOptions = {}): Promise<TestShop> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mango-shop-'));
  // Races here count exact outcomes of many placements at once: only ORDERS_AT_ONCE turns them away,
  // not a pace that a loaded test machine would make small (request-slots.test.ts tests the pace).
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, ORDERS_ANSWER_WITHIN_MS: '3600000', ...env });
  let dropDatabase = async () => {};
  let database: Database;
  let databaseUrl: string | undefined;
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const made = await newServerDatabase(serverUrl, 'mango_test', 40);
    ({ database, url: databaseUrl } = made);
    await database.migrate(seedShop);
    dropDatabase = async () => {
      await made.drop();
    };
  } else {
    const template = new Blob([await fs.readFile(inject('pgliteTemplate'))]);
    database = await openPglite(undefined, template);
  }
  const mailer = new MemoryMailer();
  const app = await buildApp({ config, database, mailTransport: mailer, publicDir: fileURLToPath(new URL('../../../public', import.meta.url)), clock: options.clock, purgeTiming: options.purgeTiming });
  await app.ready();
  if (options.deliveryCapacity !== null) {
    await database.db.insert(deliverySettings).values({ id: 1, data: { ...defaultDeliverySettings, boxesPerDay: options.deliveryCapacity ?? 100_000 } });
  }
  return {
    app,
    database,
    mailer,
    async mail() {
      await app.services.outbox.deliverDue();
      return mailer.sent;
    },
    config,
    databaseUrl,
    async close() {
      await app.close();
      await database.close();
      await dropDatabase();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

export const shopperDefaults = {
  username: 'aroha',
  email: 'aroha@example.nz',
  password: 'kumara-42',
  firstName: 'Aroha',
  lastName: 'Ngata',
  phone: '021 123 4567',
  address: '12 Ponsonby Road',
  city: '',
  postalCode: '',
  region: '',
};

/** A cookie jar of one: the session cookie a sign-in set. */
export function sessionCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === 'mango_session');
  if (!cookie) throw new Error(`no session cookie in a ${response.statusCode} answer: ${response.body}`);
  return `mango_session=${cookie.value}`;
}

export async function registerAndSignIn(app: FastifyInstance, overrides: Partial<typeof shopperDefaults> = {}) {
  const details = { ...shopperDefaults, ...overrides };
  const registered = await app.inject({ method: 'POST', url: '/api/register', payload: details });
  if (registered.statusCode !== 201) throw new Error(`register failed: ${registered.body}`);
  const login = await app.inject({ method: 'POST', url: '/api/login', payload: { email: details.email, password: details.password } });
  const user = login.json() as { id: number; username: string };
  return { user, cookie: sessionCookie(login), details };
}

export async function signInAdmin(shop: TestShop, email = 'owner@mangoshop.co.nz', password = 'orchard-keys-2026') {
  await ensureAdmin(shop.database.db, { email, password }, { promoteExisting: true });
  const login = await shop.app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
  return { user: login.json() as { id: number }, cookie: sessionCookie(login) };
}

/** app.inject with a session cookie. */
export function as(app: FastifyInstance, cookie: string) {
  return (options: InjectOptions) => app.inject({ ...options, headers: { ...options.headers, cookie } });
}

export type StaffCall = ReturnType<typeof as>;

/** A new shop with its admin signed in: `staff` calls the API as that admin. */
export async function openStaffShop(options: TestShopOptions & { env?: Record<string, string> } = {}): Promise<{ shop: TestShop; staff: StaffCall; adminId: number }> {
  const shop = await createTestShop(options.env ?? {}, options);
  const admin = await signInAdmin(shop);
  return { shop, staff: as(shop.app, admin.cookie), adminId: admin.user.id };
}

/** The two session cookies most authorisation tests need: a customer's and an admin's. */
export async function signInCustomerAndAdmin(shop: TestShop): Promise<{ customer: string; admin: string }> {
  const customer = (await registerAndSignIn(shop.app)).cookie;
  const admin = (await signInAdmin(shop)).cookie;
  return { customer, admin };
}
