import { PGlite } from '@electric-sql/pglite';

/**
 * How the embedded PostgreSQL starts: PGlite's own parameters, with 32 MB of shared buffers instead
 * of 128 MB. PGlite touches all of its shared buffers at start, so each megabyte of them is resident
 * from the first second; 32 MB holds a shop's catalogue, sessions and recent orders, and pages beyond
 * it come from the operating system's file cache. Measured in decision 0011.
 */
export const pgliteStartParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'];
