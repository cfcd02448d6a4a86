import pg from 'pg';

const warn = (msg: string, error?: unknown) =>
  console.warn(JSON.stringify({ level: 40, msg, code: (error as { code?: string } | undefined)?.code }));

/**
 * The one connection that LISTENs for cache invalidations. When PostgreSQL drops it (restart,
 * failover, a terminated backend) it reconnects with a growing pause (1 s up to 30 s) and listens
 * on every channel again, telling each listener about the gap.
 */
export class ListenConnection {
  private client: pg.Client | undefined;
  private readonly channels = new Map<string, { messages: Array<(payload: string) => void>; gaps: Array<() => void> }>();
  private retryMs = 1000;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly url: string) {}

  async listen(channel: string, onMessage: (payload: string) => void, onGap?: () => void): Promise<void> {
    const existing = this.channels.get(channel);
    const entry = existing ?? { messages: [], gaps: [] };
    entry.messages.push(onMessage);
    if (onGap) entry.gaps.push(onGap);
    this.channels.set(channel, entry);
    if (!this.client) this.client = await this.connect();
    else if (!existing) await this.client.query(`listen ${quoteChannel(channel)}`);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.url, application_name: 'mango-shop cache listener' });
    client.on('error', (error) => {
      warn('cache invalidation listener lost', error);
      this.lost(client);
    });
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      for (const handler of this.channels.get(message.channel)?.messages ?? []) handler(message.payload ?? '');
    });
    try {
      await client.connect();
      for (const channel of this.channels.keys()) await client.query(`listen ${quoteChannel(channel)}`);
      return client;
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
  }

  private lost(client: pg.Client): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
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
      const client = await this.connect();
      if (this.closed) {
        await client.end().catch(() => undefined);
        return;
      }
      this.client = client;
      this.retryMs = 1000;
      console.info(JSON.stringify({ level: 30, msg: 'cache invalidation listener reconnected' }));
      this.reportGap();
    } catch (error) {
      warn('cache invalidation listener could not reconnect', error);
      this.retryMs = Math.min(this.retryMs * 2, 30_000);
      this.scheduleReconnect();
    }
  }

  private reportGap(): void {
    for (const { gaps } of this.channels.values()) for (const gap of gaps) gap();
  }
}

function quoteChannel(channel: string): string {
  return `"${channel.replace(/"/g, '')}"`;
}
