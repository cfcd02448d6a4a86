import { randomBytes } from 'node:crypto';
import pg from 'pg';

const warn = (msg: string, error?: unknown) =>
  console.warn(JSON.stringify({ level: 40, msg, code: (error as { code?: string } | undefined)?.code }));

/**
 * TCP keepalive for every connection to PostgreSQL: the kernel probes a connection idle for this
 * long, so one whose server vanished without closing it (a failover, a dead host) ends in an error
 * within minutes instead of hanging until the next write times out.
 */
export const tcpKeepAlive = { keepAlive: true, keepAliveInitialDelayMillis: 30_000 } as const;

export interface ListenerHealthCheck {
  /** Pause between two checks of the listening connection. */
  everyMs: number;
  /** How long the check's notification may take to come back before the connection counts as lost. */
  timeoutMs: number;
}

const defaultHealthCheck: ListenerHealthCheck = { everyMs: 30_000, timeoutMs: 10_000 };

/**
 * The one connection that LISTENs for cache invalidations. When PostgreSQL drops it (restart,
 * failover, a terminated backend) it reconnects with a growing pause (1 s up to 30 s) and listens
 * on every channel again, telling each listener about the gap.
 *
 * A connection can also die without a word: after a failover behind a proxy or NAT that lost the
 * flow, both ends keep an open socket and keepalive probes are still answered, but no notification
 * ever arrives. So every `everyMs` it notifies itself on a private channel, through the server's
 * notification queue and back; when that does not come back within `timeoutMs` the connection is
 * destroyed (not ended: ending waits on the dead socket) and treated as lost.
 */
export class ListenConnection {
  private client: pg.Client | undefined;
  /** The connection being opened: every caller that needs one while it opens waits for this one. */
  private connecting: Promise<pg.Client> | undefined;
  /** Lost and not back yet: the connection that comes back reports the gap. */
  private down = false;
  private readonly channels = new Map<string, { messages: Array<(payload: string) => void>; gaps: Array<() => void> }>();
  private readonly healthChannel = `mango_listener_${randomBytes(8).toString('hex')}`;
  private healthAnswer: { token: string; heard: () => void } | undefined;
  private checks = 0;
  private healthTimer: NodeJS.Timeout | undefined;
  private retryMs = 1000;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly healthCheck: ListenerHealthCheck = defaultHealthCheck,
  ) {}

  async listen(channel: string, onMessage: (payload: string) => void, onGap?: () => void): Promise<void> {
    const existing = this.channels.get(channel);
    const entry = existing ?? { messages: [], gaps: [] };
    entry.messages.push(onMessage);
    if (onGap) entry.gaps.push(onGap);
    this.channels.set(channel, entry);
    const client = this.client ?? (await this.connection());
    // A connection opened before this channel was known does not listen on it yet.
    if (!existing) await client.query(`listen ${quoteChannel(channel)}`);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.healthTimer);
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    // A goodbye on a dead connection would wait for an answer that never comes.
    const ended = client.end().catch(() => undefined);
    const deadline = new Promise((resolve) => setTimeout(resolve, 1000).unref());
    if ((await Promise.race([ended.then(() => 'ended'), deadline])) !== 'ended') client.connection.stream.destroy();
  }

  /**
   * The listening connection, opened once however many callers ask while it is down (a listen
   * during an outage and the scheduled reconnect): two would each be used, and one never closed.
   */
  private connection(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.connect()
      .then(async (client) => {
        if (this.closed) {
          await client.end().catch(() => undefined);
          throw new Error('The cache invalidation listener is closed.');
        }
        this.use(client);
        if (this.down) this.cameBack();
        return client;
      })
      .finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.url, application_name: 'mango-shop cache listener', ...tcpKeepAlive });
    client.on('error', (error) => this.lost(client, 'cache invalidation listener lost', error));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      if (message.channel === this.healthChannel) {
        const answer = this.healthAnswer;
        if (answer && message.payload === answer.token) answer.heard();
        return;
      }
      for (const handler of this.channels.get(message.channel)?.messages ?? []) handler(message.payload ?? '');
    });
    try {
      await client.connect();
      for (const channel of [...this.channels.keys(), this.healthChannel]) await client.query(`listen ${quoteChannel(channel)}`);
      return client;
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
  }

  private use(client: pg.Client): void {
    this.client = client;
    this.scheduleHealthCheck(client);
  }

  private scheduleHealthCheck(client: pg.Client): void {
    this.healthTimer = setTimeout(() => void this.checkHealth(client), this.healthCheck.everyMs);
    this.healthTimer.unref();
  }

  private async checkHealth(client: pg.Client): Promise<void> {
    if (this.closed || this.client !== client) return;
    const token = String((this.checks += 1));
    const heard = new Promise<void>((resolve) => (this.healthAnswer = { token, heard: resolve }));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timed out'>((resolve) => {
      timer = setTimeout(() => resolve('timed out'), this.healthCheck.timeoutMs);
      timer.unref();
    });
    const roundTrip = Promise.all([client.query('select pg_notify($1, $2)', [this.healthChannel, token]), heard]).then(
      () => 'answered' as const,
      (error: unknown) => error,
    );
    const outcome = await Promise.race([roundTrip, timedOut]);
    clearTimeout(timer);
    this.healthAnswer = undefined;
    if (this.closed || this.client !== client) return;
    if (outcome === 'answered') {
      this.scheduleHealthCheck(client);
      return;
    }
    this.lost(client, outcome === 'timed out' ? 'cache invalidation listener did not answer its health check' : 'cache invalidation listener failed its health check', outcome);
    client.connection.stream.destroy();
  }

  private lost(client: pg.Client, reason?: string, error?: unknown): void {
    if (this.closed || this.client !== client) return;
    if (reason) warn(reason, error);
    this.client = undefined;
    this.down = true;
    clearTimeout(this.healthTimer);
    this.reportGap();
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    this.retryTimer = setTimeout(() => void this.reconnect(), this.retryMs);
    this.retryTimer.unref();
  }

  private async reconnect(): Promise<void> {
    if (this.closed || this.client) return;
    try {
      await this.connection();
    } catch (error) {
      if (this.closed) return;
      warn('cache invalidation listener could not reconnect', error);
      this.retryMs = Math.min(this.retryMs * 2, 30_000);
      this.scheduleReconnect();
    }
  }

  /** Whoever opened it, a connection back after a loss has missed what was announced meanwhile. */
  private cameBack(): void {
    this.down = false;
    clearTimeout(this.retryTimer);
    this.retryMs = 1000;
    console.info(JSON.stringify({ level: 30, msg: 'cache invalidation listener reconnected' }));
    this.reportGap();
  }

  private reportGap(): void {
    for (const { gaps } of this.channels.values()) for (const gap of gaps) gap();
  }
}

function quoteChannel(channel: string): string {
  return `"${channel.replace(/"/g, '')}"`;
}
