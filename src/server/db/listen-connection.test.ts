import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListenConnection } from './listen-connection';

async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

describe.runIf(process.env.DATABASE_URL)('the cache invalidation listener', () => {
  const name = `mango_listen_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  let url = '';
  beforeAll(async () => {
    await admin.connect();
    await admin.query(`create database ${name}`);
    const address = new URL(process.env.DATABASE_URL!);
    address.pathname = `/${name}`;
    url = address.toString();
  });
  afterAll(async () => {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  const openListeners = async () => {
    const result = await admin.query<{ count: string }>(
      `select count(*) from pg_stat_activity where application_name = 'mango-shop cache listener' and datname = $1`,
      [name],
    );
    return Number(result.rows[0]!.count);
  };
  /** Notifications stay inside their database: they are sent from a connection to the test's own. */
  async function notify(channel: string, payload: string): Promise<void> {
    const sender = new pg.Client({ connectionString: url });
    await sender.connect();
    await sender.query('select pg_notify($1, $2)', [channel, payload]);
    await sender.end();
  }

  it('opens one connection for listens made at the same time', async () => {
    const listening = new ListenConnection(url);
    try {
      await Promise.all([listening.listen('products', () => {}), listening.listen('settings', () => {})]);
      expect(await openListeners()).toBe(1);
    } finally {
      await listening.close();
    }
    expect(await eventually(async () => (await openListeners()) === 0)).toBe(true);
  });

  it('shares one connection between a listen made during an outage and the scheduled reconnect', async () => {
    const listening = new ListenConnection(url);
    const heard: string[] = [];
    let gaps = 0;
    let listenedDuringOutage: Promise<void> | undefined;
    try {
      await listening.listen(
        'products',
        (payload) => heard.push(`products ${payload}`),
        () => {
          gaps += 1;
          // The loss is reported before the reconnect is scheduled, 1 s later: a listen made 1 s
          // from now runs alongside it, as the outbox starting right after a blip would.
          listenedDuringOutage ??= new Promise((resolve, reject) => {
            setTimeout(() => listening.listen('settings', (payload) => heard.push(`settings ${payload}`)).then(resolve, reject), 1000);
          });
        },
      );
      await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'mango-shop cache listener' and datname = $1`, [name]);
      expect(await eventually(() => listenedDuringOutage !== undefined)).toBe(true);
      await listenedDuringOutage;
      // Back on its feet it reports the gap once more, for what it missed while down.
      expect(await eventually(() => gaps === 2)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(gaps).toBe(2);
      expect(await openListeners()).toBe(1);

      await notify('products', 'hidden');
      await notify('settings', 'saved');
      expect(await eventually(() => heard.length === 2)).toBe(true);
      expect(heard).toEqual(['products hidden', 'settings saved']);
    } finally {
      await listening.close();
    }
    expect(await eventually(async () => (await openListeners()) === 0)).toBe(true);
  });
});
