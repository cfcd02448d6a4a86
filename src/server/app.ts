import { randomUUID } from 'node:crypto';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import type { ServerBuild } from 'react-router';
import type { ViteDevServer } from 'vite';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppConfig } from './config';
import { contentPagesOf, productsWithoutOrigin, setupChecklist } from './modules/settings/setup';
import type { Database } from './db/client';
import { CacheBus, cacheTopics } from './lib/cache-bus';
import { PageCache } from './lib/page-cache';
import { CachePurger, type PurgeTiming } from './lib/cache-purge';
import { registerSharedCacheRules } from './lib/shared-cache';
import { SharedCacheChanges } from './modules/catalog/shared-cache-changes';
import { registerMetrics } from './lib/metrics';
import { registerErrorHandler } from './lib/error-handler';
import { createMailTransport, type MailTransport } from './lib/mail';
import { defaultOutboxTiming, MailOutbox, type OutboxTiming } from './lib/mail-outbox';
import { RateLimiter } from './lib/rate-limit';
import { OneLinePerRequest } from './lib/request-log';
import { registerMaintenanceGuard, registerSameOriginCheck } from './lib/request-guards';
import { registerSecurityHeaders } from './lib/security-headers';
import { registerUnstorableTextCheck } from './lib/unstorable-text';
import { pageRenderer, registerPages } from './lib/render-pages';
import { StripeCheckout } from './lib/payments';
import { accountRoutes } from './modules/account/routes';
import { currentUser, registerSessionHooks } from './modules/auth/request-user';
import { subscriptionRoutes } from './modules/subscriptions/routes';
import { SubscriptionService } from './modules/subscriptions/service';
import { SubscriptionAdmin } from './modules/subscriptions/admin';
import { SubscriptionRuns } from './modules/subscriptions/runs';
import { SeasonBoxReminders } from './modules/subscriptions/reminders';
import { seasonBoxMailRoutes } from './modules/subscriptions/mail-link-routes';
import { authRoutes } from './modules/auth/routes';
import { SessionStore } from './modules/auth/sessions';
import { cartRoutes } from './modules/cart/routes';
import { checkoutRoutes } from './modules/checkout/routes';
import { CartService } from './modules/cart/service';
import { catalogRoutes } from './modules/catalog/routes';
import { CatalogService } from './modules/catalog/service';
import { contentRoutes } from './modules/content/routes';
import { newsletterRoutes } from './modules/newsletter/routes';
import { seoRoutes } from './modules/seo/routes';
import { orderRoutes } from './modules/orders/routes';
import { OrderService } from './modules/orders/service';
import { staffOrderRoutes } from './modules/orders/staff-routes';
import { ReadyReminders } from './modules/orders/ripeness';
import { ripenessRoutes } from './modules/orders/ripeness-routes';
import { claimRoutes } from './modules/claims/routes';
import { uploadsPerShopper } from './modules/uploads/photo-form';
import { ReviewInvites } from './modules/reviews/invites';
import { reviewMailRoutes, reviewRoutes } from './modules/reviews/routes';
import { ReviewService } from './modules/reviews/service';
import { RequestSlots } from './lib/request-slots';
import { deliveryRoutes } from './modules/delivery/routes';
import { DispatchService } from './modules/delivery/dispatch';
import { DeliveryService } from './modules/delivery/service';
import { ClaimService } from './modules/claims/service';
import { preOrderRoutes } from './modules/orders/pre-order-routes';
import { PreOrderService } from './modules/orders/pre-orders';
import { recallRoutes } from './modules/inventory/recall-routes';
import { RecallService } from './modules/inventory/recalls';
import { inventoryRoutes } from './modules/inventory/routes';
import { customerRoutes } from './modules/customers/routes';
import { CustomerService } from './modules/customers/service';
import { BatchService } from './modules/inventory/batch-service';
import { InventoryService } from './modules/inventory/service';
import { promoAdminRoutes } from './modules/promos/admin-routes';
import { promoRoutes } from './modules/promos/routes';
import { reportRoutes } from './modules/reports/routes';
import { bookRoutes } from './modules/books/routes';
import { contentAdminRoutes } from './modules/content/admin-routes';
import { settingsRoutes } from './modules/settings/routes';
import { SettingsService } from './modules/settings/service';
import { uploadRoutes } from './modules/uploads/routes';
import { ImageSizes } from './modules/uploads/image-sizes';
import { ImageStore } from './modules/uploads/service';
import { userRoutes } from './modules/users/routes';
import { waitlistRoutes } from './modules/waitlist/routes';
import { WaitlistService } from './modules/waitlist/service';

export interface AppDeps {
  config: AppConfig;
  database: Database;
  /** Where the outbox delivers mail; defaults to SMTP_URL, or .eml files in DATA_DIR/outbox. */
  mailTransport?: MailTransport;
  outboxTiming?: OutboxTiming;
  /** The built web app (dist/web); API-only when absent. */
  webRoot?: string;
  /** Where the shop's own pictures (images/*.svg) are read for their sizes; defaults to webRoot/client. */
  publicDir?: string;
  /** Development: Vite in middleware mode serves the web app's modules and HMR, and the page build. */
  viteDev?: ViteDevServer;
  logger?: FastifyServerOptions['logger'];
  /** What time it is for delivery dates (cut-off, holidays) and pre-order openings; tests set their own. */
  clock?: () => Date;
  /** How purges of the shared cache are gathered and retried; tests set shorter ones. */
  purgeTiming?: PurgeTiming;
}

declare module 'fastify' {
  interface FastifyInstance {
    appConfig: AppConfig;
    services: AppServices;
    /** Every route as registered, with its body schema: the authorisation and junk-input tests walk them. */
    routeTable: Array<{ method: string; url: string; bodySchema: unknown; querySchema: unknown }>;
  }
}

export interface AppServices {
  /** The shop's clock (see AppDeps.clock). */
  clock: () => Date;
  settings: SettingsService;
  catalog: CatalogService;
  cart: CartService;
  sessions: SessionStore;
  limiter: RateLimiter;
  outbox: MailOutbox;
  bus: CacheBus;
  orders: OrderService;
  images: ImageStore;
  imageSizes: ImageSizes;
  waitlist: WaitlistService;
  /** The "your mangoes should be ready" e-mails, swept by the background work. */
  readyReminders: ReadyReminders;
  /** The "How were your mangoes?" e-mails, swept by the background work. */
  reviewInvites: ReviewInvites;
  subscriptions: SubscriptionService;
  /** Each delivery's orders at its cut-off, swept by the background work. */
  subscriptionRuns: SubscriptionRuns;
  /** The "skip or change it" e-mails before each season box's cut-off. */
  seasonBoxReminders: SeasonBoxReminders;
  /** Tells Varnish and a CDN what changed (docs/shared-cache.md). */
  purger: CachePurger;
  sharedCacheChanges: SharedCacheChanges;
}

const requestIdPattern = /^[\w.-]{1,64}$/;

function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}


/** Builds the whole shop on the given database; no listening, no timers: main.ts does those. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const app = Fastify({
    logger: deps.logger ?? false,
    // A hop count believes that many proxies, counted from the one that connected to us.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    bodyLimit: 256 * 1024,
    // Node answers 408 and closes a connection whose request has not all arrived in this time.
    requestTimeout: config.requestTimeoutMs,
    // While stopping, a request that still arrives on an open connection is answered (with
    // Connection: close), not refused: it was sent before the client could know.
    return503OnClosing: false,
    requestIdHeader: false,
    logController: new OneLinePerRequest(),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && requestIdPattern.test(given) ? given : randomUUID();
    },
    routerOptions: { maxParamLength: 200 },
  }).withTypeProvider<ZodTypeProvider>();

  // The API speaks JSON only: anything else (text/plain forms too) is refused with 415.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('appConfig', config);
  const routeTable: FastifyInstance['routeTable'] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routeTable.push({ method, url: route.url, bodySchema: route.schema?.body, querySchema: route.schema?.querystring });
  });
  app.decorate('routeTable', routeTable);

  const db = database.db;
  const bus = new CacheBus(database);
  await bus.start();
  const mailTransport = deps.mailTransport ?? createMailTransport({ smtpUrl: config.smtpUrl, from: config.mailFrom, folder: path.join(config.dataDir, 'outbox') });
  // Sends nothing until main.ts starts it; tests call deliverDue.
  // A stop lets the mail being sent finish for half the shutdown deadline, then aborts it.
  const outboxTiming = deps.outboxTiming ?? { ...defaultOutboxTiming, firstRetryMs: config.mailRetryMs, stopWaitMs: config.shutdownTimeoutMs / 2 };
  const outbox = new MailOutbox(database, mailTransport, app.log, outboxTiming);
  const settings = new SettingsService(db, bus);
  const sessions = new SessionStore(db, config.sessionTtlMs);
  const limiter = new RateLimiter(db);
  const images = new ImageStore(db);
  const imageSizes = new ImageSizes(images, deps.publicDir ?? (deps.webRoot && path.join(deps.webRoot, 'client')));
  const publicUrl = config.publicUrl ?? `http://localhost:${config.port}`;
  // The shop's clock: what time it is for delivery dates and pre-order openings (tests set their own).
  const clock = deps.clock ?? (() => new Date());
  const catalog = new CatalogService(db, bus, settings, imageSizes, clock);
  const cart = new CartService(db, imageSizes, clock, async () => (await catalog.current()).byId);
  const stripe = config.stripe ? new StripeCheckout(config.stripe) : undefined;
  const delivery = new DeliveryService(db, bus, clock);
  const orderDeps = { db, settings, delivery, bus, stripe, publicUrl, clock, log: app.log, serialTransactions: database.kind === 'pglite', offeredOrigins: async () => (await catalog.current()).byId };
  const orders = new OrderService(orderDeps);
  const waitlist = new WaitlistService({ db, limiter, catalog, publicUrl, clock });
  const readyReminders = new ReadyReminders({ db, clock, publicUrl, siteName: async () => (await settings.stored()).siteName });
  const reviewInvites = new ReviewInvites({ db, clock, publicUrl, shop: () => settings.stored() });
  const subscriptions = new SubscriptionService({ db, delivery, settings, clock, publicUrl, stripe, log: app.log });
  const seasonBoxReminders = new SeasonBoxReminders({ db, delivery, settings, clock, publicUrl });
  const subscriptionRuns = new SubscriptionRuns({ db, delivery, settings, orders, bus, clock, publicUrl, stripe, log: app.log, offeredOrigins: orderDeps.offeredOrigins });
  const purger = new CachePurger(config.sharedCache, app.log, deps.purgeTiming);
  const sharedCacheChanges = new SharedCacheChanges({ db, catalog, purger, log: app.log });
  bus.onPublish((topic, tags) => sharedCacheChanges.changed(topic, tags));
  app.addHook('onClose', async () => {
    await sharedCacheChanges.stop();
    await purger.stop();
  });
  const services: AppServices = { clock, settings, catalog, cart, sessions, limiter, outbox, bus, orders, images, imageSizes, waitlist, readyReminders, reviewInvites, subscriptions, subscriptionRuns, seasonBoxReminders, purger, sharedCacheChanges };
  app.decorate('services', services);

  const viteDev = deps.viteDev;
  if (viteDev) {
    // Vite answers its own paths (modules, /@vite, HMR); whatever it passes on goes to Fastify.
    app.addHook('onRequest', (request, reply, done) => {
      if (request.url.startsWith('/api/')) return done();
      viteDev.middlewares(request.raw, reply.raw, () => done());
    });
  }
  await app.register(fastifyCookie);
  registerSecurityHeaders(app);
  registerSharedCacheRules(app, config.sharedCache, clock);
  // Pages for visitors are kept until products, settings, content or offers change.
  // Kept in process no longer than a shared cache may keep them, less a second: a page served from
  // here always has some s-maxage left (a short CACHE_S_MAXAGE_SECONDS shortens it).
  const pageCache = new PageCache(undefined, Math.max(1000, Math.min(30_000, (config.sharedCache.sMaxAgeSeconds - 1) * 1000)));
  for (const topic of cacheTopics) bus.on(topic, () => pageCache.clear());
  if (config.metricsToken) registerMetrics(app, { token: config.metricsToken, database, outbox, pageCache, purger });

  registerErrorHandler(app);
  registerSessionHooks(app, sessions);
  registerSameOriginCheck(app, config);
  registerUnstorableTextCheck(app);
  registerMaintenanceGuard(app, {
    maintenance: async () => (await settings.publicView()).maintenance,
    isAdmin: async (request) => (await currentUser(request))?.isAdmin ?? false,
  });

  await app.register(authRoutes({ db, config, limiter, sessions, publicUrl }));
  await app.register(catalogRoutes(catalog));
  await app.register(cartRoutes(cart));
  await app.register(checkoutRoutes({ db, settings, delivery, cardPayments: Boolean(stripe) }));
  await app.register(orderRoutes({ orders, limiter, stripe, ordersPerUserPerHour: config.limits.ordersPerUserPerHour, ordersAtOnce: config.ordersAtOnce, ordersAnswerWithinMs: config.ordersAnswerWithinMs, cardSaved: (sessionId, reference) => subscriptions.cardSaved(sessionId, reference) }));
  await app.register(accountRoutes({ db, limiter, config, bus }));
  await app.register(staffOrderRoutes({ db, orders, limiter }));
  const photoUploads = { bodyIdleMs: config.bodyIdleMs, slots: new RequestSlots({ perAccount: uploadsPerShopper, total: config.uploadsAtOnce }) };
  await app.register(claimRoutes({ claims: new ClaimService({ db, settings, orders, bus, publicUrl, delivery }), limiter, uploads: photoUploads }));
  await app.register(reviewRoutes({ reviews: new ReviewService({ db, bus, catalog }), limiter, uploads: photoUploads }));
  await app.register(preOrderRoutes(new PreOrderService({ ...orderDeps, orders })));
  await app.register(inventoryRoutes(new InventoryService({ db, settings, bus }), new BatchService({ db, settings, bus, clock })));
  await app.register(recallRoutes(new RecallService({ db, settings, bus, publicUrl })));
  await app.register(customerRoutes(new CustomerService(db)));
  await app.register(
    settingsRoutes(settings, async () =>
      setupChecklist({
        settings: await settings.stored(),
        delivery: await delivery.settings(),
        publicUrl: config.publicUrl,
        smtpUrl: config.smtpUrl,
        linkBase: publicUrl,
        pages: await contentPagesOf(db),
        productsWithoutOrigin: await productsWithoutOrigin(db),
      }),
    ),
  );
  await app.register(deliveryRoutes(delivery, new DispatchService({ db, delivery, settings, orders, canPayByCard: Boolean(stripe) })));
  await app.register(promoRoutes(db));
  await app.register(contentRoutes(db, imageSizes));
  await app.register(promoAdminRoutes({ db, bus }));
  await app.register(contentAdminRoutes({ db, bus }));
  await app.register(reportRoutes({ db, bus }));
  await app.register(bookRoutes({ db }));
  await app.register(newsletterRoutes({ db, limiter, publicUrl }));
  await app.register(waitlistRoutes(waitlist, publicUrl));
  await app.register(ripenessRoutes(readyReminders, publicUrl));
  await app.register(reviewMailRoutes(reviewInvites, publicUrl));
  await app.register(seasonBoxMailRoutes(seasonBoxReminders, subscriptions, publicUrl));
  await app.register(subscriptionRoutes(subscriptions, subscriptionRuns, new SubscriptionAdmin({ db, delivery, subscriptions, clock }), seasonBoxReminders, clock));
  await app.register(userRoutes(db));
  await app.register(uploadRoutes({ db, images }));
  await app.register(seoRoutes({ db, publicUrl: config.publicUrl }));

  app.get('/healthz', async () => ({ status: 'ok' }));
  // The shop's clock, for the browser's countdown to a pre-order opening (its own clock may be off).
  app.get('/api/time', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { now: clock().toISOString() };
  });
  app.get('/readyz', async (_request, reply) => {
    try {
      await database.db.execute('select 1');
      return { status: 'ready' };
    } catch {
      return reply.code(503).send({ status: 'unavailable', message: 'The database cannot be reached.' });
    }
  });

  const serveApp = viteDev
    ? await pageRenderer(app, () => viteDev.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>, { mode: 'development', publicUrl: config.publicUrl })
    : await registerPages(app, deps.webRoot, config.publicUrl, pageCache, (tag) => sharedCacheChanges.pagesBuiltBy(tag));
  app.setNotFoundHandler(async (request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.code(404).send({ message: `No such endpoint: ${request.method} ${request.url.split('?')[0]}` });
    }
    return serveApp(request, reply);
  });

  return app;
}
