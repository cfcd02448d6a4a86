import { type messages, parse, type PGlite, protocol, type QueryOptions, type Results } from '@electric-sql/pglite';

type BackendMessage = messages.BackendMessage;
type RowDescription = messages.RowDescriptionMessage;
type DataRow = messages.DataRowMessage;
type CommandComplete = messages.CommandCompleteMessage;
type ParameterDescription = messages.ParameterDescriptionMessage;
type Field = { name: string; dataTypeID: number };

/** A statement the embedded database has parsed once under a name, with what its first parse told. */
interface Prepared {
  name: string;
  /** The type of each parameter, as the database inferred it: a value is written the way PGlite writes it for that type. */
  paramTypes: number[];
  /** The columns it answers (none for a write without RETURNING). */
  fields: Field[];
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
 * plan: about 90 µs. Values are written exactly as PGlite writes them, by the parameter's type,
 * and answers are built by PGlite's own result parser, so callers see the same rows, fields,
 * counts and errors.
 *
 * The caller serialises use of the connection (the shop's fair turns, and a transaction's own
 * queries one after another); each call also takes PGlite's query lock, as its own queries do.
 */
export class NamedStatements {
  /** By statement text, least recently used first. */
  private readonly prepared = new Map<string, Prepared>();

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
  query<T>(text: string, params: unknown[] | undefined, options: QueryOptions | undefined, inTransaction: boolean): Promise<Results<T>> {
    return this.client.runExclusive(async () => {
      try {
        const statement = this.prepared.get(text) ?? (await this.prepare(text, inTransaction));
        // Used again: it moves to the back of the queue for closing.
        this.prepared.delete(text);
        this.prepared.set(text, statement);
        const values = this.written(params ?? [], statement.paramTypes, options);
        const bind = protocol.serialize.bind({ statement: statement.name, values });
        const messages = await this.send([bind, protocol.serialize.execute({}), protocol.serialize.sync()], inTransaction);
        return answerOf<T>(messages, statement.fields, this.client.parsers, options);
      } catch (error) {
        // A statement the database no longer knows (closed by hand) is parsed again next time.
        if ((error as { code?: unknown }).code === '26000') this.prepared.delete(text);
        throw withQuery(error, text, params, options);
      }
    });
  }

  /** Forgets every named statement (after migrations changed the tables they read). */
  async forgetAll(): Promise<void> {
    if (!this.prepared.size) return;
    this.prepared.clear();
    await this.client.exec('deallocate all');
  }

  private async prepare(text: string, inTransaction: boolean): Promise<Prepared> {
    const parts: Uint8Array[] = [];
    // The least recently used goes first, in the same call, when the shop would keep more than the most.
    if (this.prepared.size >= maxNamedStatements) {
      const [oldestText, oldest] = this.prepared.entries().next().value!;
      this.prepared.delete(oldestText);
      parts.push(protocol.serialize.close({ type: 'S', name: oldest.name }));
    }
    namesGiven += 1;
    const name = `mango_${namesGiven}`;
    parts.push(protocol.serialize.parse({ name, text }), protocol.serialize.describe({ type: 'S', name }), protocol.serialize.sync());
    const messages = await this.send(parts, inTransaction);
    const paramTypes = messages.find((message): message is ParameterDescription => message.name === 'parameterDescription')?.dataTypeIDs ?? [];
    const columns = messages.find((message): message is RowDescription => message.name === 'rowDescription')?.fields ?? [];
    const prepared = { name, paramTypes, fields: columns.map((field) => ({ name: field.name, dataTypeID: field.dataTypeID })) };
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

  private async send(parts: Uint8Array[], inTransaction: boolean): Promise<BackendMessage[]> {
    const { messages } = await this.client.execProtocol(joined(parts), { syncToFs: !inTransaction });
    return messages;
  }
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

/** The answer PGlite's `query` gives: its parser, handed the columns the statement's parse described. */
function answerOf<T>(messages: BackendMessage[], fields: Field[], parsers: PGlite['parsers'], options: QueryOptions | undefined): Results<T> {
  const described = { name: 'rowDescription', length: 0, fieldCount: fields.length, fields } as unknown as RowDescription;
  const rows = messages.filter((message): message is DataRow | CommandComplete => message.name === 'dataRow' || message.name === 'commandComplete');
  return parse.parseResults([described, ...rows], parsers, options)[0] as Results<T>;
}

/** The statement and its values on the error, as PGlite's `query` puts them there. */
function withQuery(error: unknown, query: string, params: unknown[] | undefined, options: QueryOptions | undefined): unknown {
  if (error instanceof protocol.messages.DatabaseError) Object.assign(error, { query, params, queryOptions: options });
  return error;
}

