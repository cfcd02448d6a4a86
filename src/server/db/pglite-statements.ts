import { type messages, parse, type PGlite, protocol, type QueryOptions, type Results } from '@electric-sql/pglite';

type BackendMessage = messages.BackendMessage;
type ParameterDescription = messages.ParameterDescriptionMessage;
type RowDescription = messages.RowDescriptionMessage;

/** A statement the embedded database has parsed once under a name. */
interface Prepared {
  name: string;
  /** The type of each parameter, as the database inferred it: a value is written the way PGlite writes it for that type. */
  paramTypes: number[];
  /**
   * The columns it answers, as its parse described them (none for a write without RETURNING), or
   * null for a statement whose columns are only known when it runs (a cursor's FETCH, EXECUTE).
   */
  columns: RowDescription | null;
}

/**
 * Whether a statement is a FETCH or an EXECUTE, which answer the columns of a cursor or statement
 * named at run time: its first word after white space and comments (a double dash to the line's
 * end; slash-star comments, nested as PostgreSQL nests them), read in one pass.
 */
export function describedWhenRun(text: string): boolean {
  let at = 0;
  while (at < text.length) {
    if (/\s/.test(text[at]!)) at += 1;
    else if (text.startsWith('--', at)) {
      while (at < text.length && text[at] !== '\n' && text[at] !== '\r') at += 1;
    } else if (text.startsWith('/*', at)) {
      let depth = 0;
      do {
        if (text.startsWith('/*', at)) [depth, at] = [depth + 1, at + 2];
        else if (text.startsWith('*/', at)) [depth, at] = [depth - 1, at + 2];
        else at += 1;
      } while (depth > 0 && at < text.length);
    } else break;
  }
  return /^(?:fetch|execute)\b/i.test(text.slice(at, at + 8));
}

/** More distinct statements than the shop ever sends: an older one is closed when a new one would pass this. */
export const maxNamedStatements = 500;

/** Names are never reused in a process, so no two statements, of any client, share one. */
let namesGiven = 0;

/**
 * The embedded database's queries as named statements, each sent in one call (decision 0038).
 *
 * PGlite's own `query` hands a statement to the database in six protocol calls (parse, describe,
 * bind, describe, execute, sync), and parses and plans it afresh every time: about 350 µs for a
 * one-row select, most of it in the WebAssembly database, while the request's own work is a few
 * µs. Here a statement text is parsed once under a name (its parameter types and columns kept),
 * and each run after that is one call (bind, execute, sync) that skips the parse and reuses the
 * plan: about 100 µs. Values are written exactly as PGlite writes them, by the parameter's type,
 * and answers are built by PGlite's own result parser from the columns the parse described (a run
 * describes its own only where they can differ: FETCH, EXECUTE), so callers see the same rows,
 * fields, counts and errors. PostgreSQL refuses to run a kept statement whose columns changed
 * (0A000); it is then parsed afresh.
 *
 * Each call takes PGlite's locks as its own `query` does: the query lock, and outside a
 * transaction also the transaction lock.
 */
export class NamedStatements {
  /** By statement text, least recently used first. */
  private readonly prepared = new Map<string, Prepared>();
  /** Statements to close in the database, with the next parse. */
  private readonly closing: string[] = [];

  constructor(private readonly client: PGlite) {}

  /** Options a named statement serves as PGlite would; others (a blob, notices, given parameter types) go PGlite's way. */
  static fits(options: QueryOptions | undefined): boolean {
    return !options || (options.blob === undefined && options.onNotice === undefined && options.paramTypes === undefined);
  }

  /** How many statements are kept parsed now. */
  get size(): number {
    return this.prepared.size;
  }

  /** Runs `text` with `params`; `inTransaction`: inside a transaction block (nothing to flush to disk until it commits). */
  async query<T>(text: string, params: unknown[] = [], options: QueryOptions | undefined, inTransaction: boolean): Promise<Results<T>> {
    // Before the locks too, as PGlite's own query: a database still starting is waited for outside them.
    await this.client._checkReady();
    const run = () => this.client.runExclusive(() => this.run<T>(text, params, options, inTransaction));
    return inTransaction ? run() : this.client._runExclusiveTransaction(run);
  }

  /** Forgets every named statement (after migrations changed the tables they read). */
  async forgetAll(): Promise<void> {
    await this.client._runExclusiveTransaction(() =>
      this.client.runExclusive(async () => {
        await this.client._checkReady();
        this.prepared.clear();
        this.closing.length = 0;
        await this.client.execProtocolStream(protocol.serialize.query('deallocate all'));
      }),
    );
  }

  private async run<T>(text: string, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean, again = false): Promise<Results<T>> {
    await this.client._checkReady();
    const kept = this.prepared.get(text);
    try {
      const statement = kept ?? (await this.prepare(text, inTransaction));
      // Used again: it moves to the back of the queue for closing.
      this.prepared.delete(text);
      this.prepared.set(text, statement);
      const values = this.written(params, statement.paramTypes, options);
      const bind = protocol.serialize.bind({ statement: statement.name, values });
      // Describing costs as much as running a one-row select of a wide table: only where the columns can differ.
      const run = statement.columns ? [bind, protocol.serialize.execute({}), protocol.serialize.sync()] : [bind, protocol.serialize.describe({ type: 'P' }), protocol.serialize.execute({}), protocol.serialize.sync()];
      const messages = await this.send(run, inTransaction);
      if (statement.columns) messages.unshift(statement.columns);
      return parse.parseResults(messages, this.client.parsers, options)[0] as Results<T>;
    } catch (error) {
      // A kept statement the database no longer knows (closed by hand), or whose tables changed
      // shape since its parse (a schema change outside migrations), is parsed afresh: at once
      // outside a transaction, where the failed run changed nothing; else on the next run.
      if (kept && this.prepared.get(text) === kept && isStale(error, kept.name)) {
        this.prepared.delete(text);
        this.closing.push(kept.name);
        if (!inTransaction && !again) return this.run<T>(text, params, options, inTransaction, true);
      }
      throw withQuery(error, text, params, options);
    }
  }

  private async prepare(text: string, inTransaction: boolean): Promise<Prepared> {
    // The least recently used goes, in the same call, when the shop would keep more than the most.
    if (this.prepared.size >= maxNamedStatements) {
      const [oldestText, oldest] = this.prepared.entries().next().value!;
      this.prepared.delete(oldestText);
      this.closing.push(oldest.name);
    }
    const parts = this.closing.splice(0).map((name) => protocol.serialize.close({ type: 'S', name }));
    namesGiven += 1;
    const name = `mango_${namesGiven}`;
    parts.push(protocol.serialize.parse({ name, text }), protocol.serialize.describe({ type: 'S', name }), protocol.serialize.sync());
    const messages = await this.send(parts, inTransaction);
    const paramTypes = messages.find((message): message is ParameterDescription => message.name === 'parameterDescription')?.dataTypeIDs ?? [];
    const described = messages.find((message): message is RowDescription => message.name === 'rowDescription');
    // What the parser reads of a description: the columns' names and types (none: a write without RETURNING).
    const columns = describedWhenRun(text) ? null : ({ name: 'rowDescription', length: 0, fieldCount: described?.fieldCount ?? 0, fields: described?.fields ?? [] } as RowDescription);
    const prepared = { name, paramTypes, columns };
    this.prepared.set(text, prepared);
    return prepared;
  }

  /** Each value as PGlite's `query` writes it: by the parameter's type, else as text. */
  private written(params: unknown[], types: number[], options: QueryOptions | undefined): Array<string | null> {
    return params.map((param, index) => {
      if (param === null || param === undefined) return null;
      const type = types[index]!;
      const serialize = options?.serializers?.[type] ?? this.client.serializers[type];
      return serialize ? serialize(param) : String(param);
    });
  }

  private send(parts: Uint8Array[], inTransaction: boolean): Promise<BackendMessage[]> {
    return this.client.execProtocolStream(joined(parts), { syncToFs: !inTransaction });
  }
}

/** The kept statement `name` is not found (26000), or its plan must not change result type (0A000). */
function isStale(error: unknown, name: string): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof message !== 'string') return false;
  return (code === '26000' && message.includes(`"${name}"`)) || (code === '0A000' && message.includes('cached plan must not change result type'));
}

function joined(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** The statement and its values on the error, as PGlite's `query` puts them there. */
function withQuery(error: unknown, query: string, params: unknown[], options: QueryOptions | undefined): unknown {
  if (error instanceof protocol.messages.DatabaseError) Object.assign(error, { query, params, queryOptions: options });
  return error;
}

