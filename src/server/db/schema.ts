/**
 * The database's tables, one file an area under schema/. This is the one entry point: the app
 * imports it, and drizzle-kit reads it to write migrations.
 */
export * from './schema/accounts';
export * from './schema/catalog';
export * from './schema/claims';
export * from './schema/content';
export * from './schema/delivery';
export * from './schema/mail';
export * from './schema/orders';
export * from './schema/batches';
export * from './schema/reviews';
export * from './schema/subscriptions';
export * from './schema/shared-cache';
