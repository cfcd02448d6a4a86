import { pgTable, text } from 'drizzle-orm/pg-core';
import { updatedAt } from './columns';

/**
 * What each shared-cache tag last showed, as a hash of the public answer it stands for
 * (docs/shared-cache.md). After a change, the process that made it writes the new hashes; the
 * tags whose hash it changed are purged, once, whichever of several processes gets there first.
 */
export const sharedCacheShapes = pgTable('shared_cache_shapes', {
  tag: text('tag').primaryKey(),
  shape: text('shape').notNull(),
  updatedAt: updatedAt(),
});
