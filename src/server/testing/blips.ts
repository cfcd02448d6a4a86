import type { Db } from '../db/client';
import type { TestShop } from './test-app';

type SharedMethod = 'select' | 'insert' | 'update' | 'execute';

/**
 * A connection blip right after a commit: once a transaction on the shop's shared handle has
 * committed, that handle's next `method` call throws once, as a dropped connection would. Work
 * that is committed must not be answered with an error because of it.
 */
export function blipAfterCommit(shop: TestShop, method: SharedMethod): { fired: () => boolean; restore: () => void } {
  const db = shop.database.db;
  // The methods are swapped by name; their many overloads do not matter to a stand-in that passes them on.
  const methods = db as unknown as Record<SharedMethod, (...args: unknown[]) => unknown>;
  const open = db.transaction;
  const call = methods[method];
  let armed = false;
  let fired = false;
  db.transaction = (async (...args: Parameters<Db['transaction']>) => {
    const result = await open.apply(db, args);
    armed = true;
    return result;
  }) as Db['transaction'];
  methods[method] = (...args: unknown[]) => {
    if (armed) {
      armed = false;
      fired = true;
      throw new Error('Connection terminated unexpectedly');
    }
    return call.apply(db, args);
  };
  return {
    fired: () => fired,
    restore() {
      db.transaction = open;
      methods[method] = call;
    },
  };
}

/**
 * Empties the settings cache each time a transaction opens, as a notification from another
 * process can at any moment: what a transaction needs must be read before it opens.
 */
export function coldSettingsAtEachTransaction(shop: TestShop): { restore: () => void } {
  const db = shop.database.db;
  const open = db.transaction;
  db.transaction = ((...args: Parameters<Db['transaction']>) => {
    void shop.app.services.bus.publish('settings');
    return open.apply(db, args);
  }) as Db['transaction'];
  return {
    restore() {
      db.transaction = open;
    },
  };
}
