import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/client';
import type { MailOutbox } from './mail-outbox';
import type { PageCache } from './page-cache';
import type { CachePurger } from './cache-purge';

export interface MetricsSources {
  token: string;
  database: Database;
  outbox: MailOutbox;
  pageCache: PageCache;
  purger: Pick<CachePurger, 'sent' | 'failures' | 'givenUp'>;
}

/** Request times from 2 ms to 10 s: a page from the cache, an order in a rush, a stuck request. */
const requestBuckets = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const databaseBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** The route a request matched, as registered (`/api/products/:id`): a label with few values. */
function routeOf(request: FastifyRequest): string {
  const url = request.routeOptions.url;
  if (url) return url;
  // Pages are drawn by the not-found handler; anything else matched nothing.
  return request.method === 'GET' && !request.url.startsWith('/api') ? 'page' : 'unmatched';
}

/** Compared as SHA-256 digests, always 32 bytes: the time taken says nothing of either length. */
function sameToken(given: string, expected: string): boolean {
  return timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());
}

/** The credentials of an `Authorization: Bearer <token>` header; the scheme's name is read in any case (RFC 9110). */
function bearerToken(authorization: string): string {
  return /^bearer /i.test(authorization) ? authorization.slice(7).trim() : '';
}

/**
 * `GET /metrics` in Prometheus's text format, for a bearer of METRICS_TOKEN only, never cached.
 * Each process answers for itself: scrape every process, not the proxy in front of them. Only
 * registered when METRICS_TOKEN is set; without it nothing is counted and /metrics is not there.
 */
export function registerMetrics(app: FastifyInstance, sources: MetricsSources): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

  const requests = new Counter({ name: 'mango_http_requests_total', help: 'Requests answered, by method, route and status', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const requestSeconds = new Histogram({
    name: 'mango_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer, by method and route',
    labelNames: ['method', 'route'],
    buckets: requestBuckets,
    registers: [registry],
  });
  const ordersPlaced = new Counter({ name: 'mango_orders_placed_total', help: 'Orders placed (POST /api/orders answered 201)', registers: [registry] });
  const ordersRefused = new Counter({
    name: 'mango_orders_refused_total',
    help: 'Order placements refused, by status: 409 sold out or day full, 429 busy or over the limit, 400 bad input, 503 database unreachable',
    labelNames: ['status'],
    registers: [registry],
  });

  app.addHook('onResponse', (request, reply, done) => {
    const route = routeOf(request);
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    requestSeconds.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    if (request.method === 'POST' && route === '/api/orders') {
      // 200 is the same order again (the shopper sent the same order key twice): neither placed nor refused.
      if (reply.statusCode === 201) ordersPlaced.inc();
      else if (reply.statusCode >= 400) ordersRefused.inc({ status: String(reply.statusCode) });
    }
    done();
  });

  const waitSeconds = new Histogram({ name: 'mango_db_wait_seconds', help: 'Time a use of the database waited for its connection', buckets: databaseBuckets, registers: [registry] });
  const querySeconds = new Histogram({ name: 'mango_db_query_seconds', help: 'Time a use of the database took once it had its connection', buckets: databaseBuckets, registers: [registry] });
  sources.database.observe({ waited: (ms) => waitSeconds.observe(ms / 1000), ran: (ms) => querySeconds.observe(ms / 1000) });
  new Gauge({
    name: 'mango_db_waiting',
    help: 'Uses of the database waiting for a connection now (the embedded database queue, or the PostgreSQL pool)',
    registers: [registry],
    collect() {
      this.set(sources.database.waiting());
    },
  });
  new Gauge({
    name: 'mango_db_up',
    help: '1 when the database answered this scrape, 0 when it did not',
    registers: [registry],
    async collect() {
      try {
        await sources.database.db.execute('select 1');
        this.set(1);
      } catch {
        this.set(0);
      }
    },
  });

  const mailGauges = {
    waiting: new Gauge({ name: 'mango_mail_waiting', help: 'Mail in the outbox not yet sent', registers: [registry] }),
    retrying: new Gauge({ name: 'mango_mail_retrying', help: 'Mail not yet sent that has failed at least once', registers: [registry] }),
    oldest: new Gauge({ name: 'mango_mail_oldest_waiting_seconds', help: 'Age of the oldest mail not yet sent', registers: [registry] }),
    givenUp: new Gauge({ name: 'mango_mail_given_up_last_day', help: 'Mail given up on in the last 24 hours (refused for good, or still failing after three days)', registers: [registry] }),
  };

  const pageHits = new Counter({ name: 'mango_page_cache_hits_total', help: 'Visitor pages served from the page cache', registers: [registry] });
  const pageMisses = new Counter({ name: 'mango_page_cache_misses_total', help: 'Visitor pages rendered because the cache had none', registers: [registry] });
  let countedHits = 0;
  let countedMisses = 0;
  const purges = new Counter({ name: 'mango_cache_purges_total', help: 'Purges of the shared cache: sent (answered 2xx), failed tries, and given up after the last try', labelNames: ['result'], registers: [registry] });
  const countedPurges = { sent: 0, failed: 0, given_up: 0 };

  app.get('/metrics', { logLevel: 'warn' }, async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store');
    const authorization = request.headers.authorization ?? '';
    const given = bearerToken(authorization);
    if (!given || !sameToken(given, sources.token)) {
      return reply.code(401).header('www-authenticate', 'Bearer realm="metrics"').send({ message: 'Send the metrics token as Authorization: Bearer <METRICS_TOKEN>' });
    }
    pageHits.inc(sources.pageCache.hits - countedHits);
    pageMisses.inc(sources.pageCache.misses - countedMisses);
    countedHits = sources.pageCache.hits;
    countedMisses = sources.pageCache.misses;
    const purgesNow = { sent: sources.purger.sent, failed: sources.purger.failures, given_up: sources.purger.givenUp };
    for (const result of ['sent', 'failed', 'given_up'] as const) {
      purges.inc({ result }, purgesNow[result] - countedPurges[result]);
      countedPurges[result] = purgesNow[result];
    }
    try {
      const mail = await sources.outbox.counts();
      mailGauges.waiting.set(mail.waiting);
      mailGauges.retrying.set(mail.retrying);
      mailGauges.oldest.set(mail.oldestWaitingSeconds);
      mailGauges.givenUp.set(mail.givenUpLastDay);
    } catch {
      // The database is down: mango_db_up says so, and the mail gauges keep their last values.
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
