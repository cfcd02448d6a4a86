import pg from 'pg';

/** Statement texts that get a name, at most: texts built with lists of varying length run unnamed beyond it. */
const maxNamed = 256;
/** Texts seen once, remembered until a second sighting names them; forgotten all at once when this many. */
const maxSeenOnce = 2048;
/** What may be named: queries and writes, never a statement run once at start (DDL, settings). */
const nameable = /^\s*(?:select|insert|update|delete|with)\b/i;

/**
 * Names for the statements the shop sends again and again. PostgreSQL parses and plans a named
 * statement once per connection and then only binds and runs it; an unnamed one is parsed and
 * planned on every run. A text gets a name the second time it is seen (one-off statements stay
 * unnamed), the same name on every connection, and never another text (the driver checks both).
 */
export class StatementNames {
  private readonly names = new Map<string, string>();
  private seenOnce = new Set<string>();
  /** Texts whose kept plan went stale: they run unnamed from then on. */
  private readonly retired = new Set<string>();
  /** Names given so far: a retired name is never given to another text. */
  private given = 0;

  /** The name for `text`, or undefined while it has been seen once, is not a query, or the names are used up. */
  nameFor(text: string): string | undefined {
    const named = this.names.get(text);
    if (named !== undefined || this.retired.has(text) || this.given >= maxNamed || !nameable.test(text)) return named;
    if (!this.seenOnce.has(text)) {
      if (this.seenOnce.size >= maxSeenOnce) this.seenOnce = new Set();
      this.seenOnce.add(text);
      return undefined;
    }
    this.seenOnce.delete(text);
    this.given += 1;
    const name = `shop_${this.given}`;
    this.names.set(text, name);
    return name;
  }

  /**
   * A named statement's kept plan no longer fits its tables (a column's type changed by a newer
   * version's migration while this process still runs): the text runs unnamed from now on, parsed
   * afresh each time, on every connection. Its name is never given again.
   */
  retire(text: string): void {
    if (this.names.delete(text)) this.retired.add(text);
  }
}

/**
 * PostgreSQL's answer to a kept plan whose result columns changed type ("cached plan must not
 * change result type"), told by its code and the routine that raised it, in any server language.
 */
function isStalePlan(error: unknown): boolean {
  const { code, routine } = (error ?? {}) as { code?: unknown; routine?: unknown };
  return code === '0A000' && routine === 'RevalidateCachedQuery';
}

interface TextQuery {
  text: string;
  name?: string;
}

function isTextQuery(config: unknown): config is TextQuery {
  if (typeof config !== 'object' || config === null || 'submit' in config) return false;
  const { text, name } = config as Partial<TextQuery>;
  return typeof text === 'string' && name === undefined;
}

/**
 * pg's Client, naming each parameterised statement by `names` (the pool's connections share them).
 * Statements with a name of their own, plain strings and cursors pass through as they are.
 */
export function clientNaming(names: StatementNames): typeof pg.Client {
  return class NamingClient extends pg.Client {
    // pg's query() has a dozen overloads, not restatable in an override: the arguments pass through unchanged but for the name.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    override query(...args: any[]): any {
      const [config, values] = args as [unknown, unknown];
      // Without values pg uses the simple protocol, where one text may hold several statements: left as it is.
      if (!isTextQuery(config) || !Array.isArray(values) || values.length === 0) return super.query(...(args as Parameters<pg.Client['query']>));
      const name = names.nameFor(config.text);
      if (!name) return super.query(...(args as Parameters<pg.Client['query']>));
      args[0] = { ...config, name };
      // The run whose kept plan went stale fails (its request answers an error); the next is parsed afresh.
      const retireIfStale = (error: unknown) => {
        if (isStalePlan(error)) names.retire(config.text);
      };
      const callback = args.at(-1) as unknown;
      if (typeof callback === 'function') {
        // The pool's own query() passes one.
        args[args.length - 1] = (error: unknown, result: unknown) => {
          retireIfStale(error);
          (callback as (error: unknown, result: unknown) => void)(error, result);
        };
        return super.query(...(args as Parameters<pg.Client['query']>));
      }
      const answer = super.query(...(args as Parameters<pg.Client['query']>)) as unknown as Promise<unknown>;
      return answer.catch((error: unknown) => {
        retireIfStale(error);
        throw error;
      });
    }
  };
}
