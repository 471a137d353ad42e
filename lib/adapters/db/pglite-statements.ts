import { parse, protocol, type PGlite, type QueryOptions, type Results } from "@electric-sql/pglite";
import { isSelect } from "./data-version";

const { serialize } = protocol;

// PGlite runs every query as an unnamed statement: parse, describe, bind, describe, execute
// and sync, six separate calls into WebAssembly, and the statement is parsed, analysed and
// planned each time; for a point lookup that is most of its cost (docs/performance.md, "The
// database"). PostgreSQL's own clients (postgres.js, node-postgres) keep a named prepared
// statement per query text instead, and so does this for the embedded
// database's plain SELECTs outside transactions: the first run parses and describes the
// statement once under a name, every later run binds, describes the portal, executes and
// syncs in one call. PostgreSQL replans a named statement when the tables under it change;
// one whose columns changed is prepared again. Results are parsed by PGlite's own code, and
// parameters serialized as its query does.
const MAX_STATEMENTS = 200;

type Statement = { name: string; paramTypes: number[] };
type BindValues = NonNullable<NonNullable<Parameters<typeof serialize.bind>[0]>["values"]>;

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Whether `options` ask for anything the prepared path does not do (then PGlite's own query runs). */
const plain = (options: QueryOptions | undefined) => !options || (!options.paramTypes && !options.serializers && !options.blob && !options.onNotice);

export function withPreparedSelects(client: PGlite): PGlite {
  const statements = new Map<string, Statement>();
  let counter = 0;
  const query = client.query.bind(client);
  // Messages up to a Sync in one call; an error is thrown once the Sync has reset the session.
  const send = (messages: Uint8Array[]) => client.execProtocolStream(concat(messages), { syncToFs: false });

  async function prepare(sql: string): Promise<Statement> {
    const name = `contentio_${++counter}`;
    const messages = await send([serialize.parse({ name, text: sql }), serialize.describe({ type: "S", name }), serialize.sync()]);
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(messages) };
    statements.set(sql, statement);
    if (statements.size > MAX_STATEMENTS) await forget(statements.keys().next().value!);
    return statement;
  }

  async function run<T>(sql: string, params: unknown[], options: QueryOptions | undefined): Promise<Results<T>> {
    try {
      return await execute<T>(statements.get(sql) ?? (await prepare(sql)), params, options);
    } catch (e) {
      // "cached plan must not change result type": a table under the statement changed shape
      // since it was prepared. Prepared again, it answers as a new query would.
      if ((e as { code?: string }).code !== "0A000" || !statements.has(sql)) throw e;
      await forget(sql);
      return await execute<T>(await prepare(sql), params, options);
    }
  }

  async function forget(sql: string) {
    const statement = statements.get(sql)!;
    statements.delete(sql);
    await send([serialize.close({ type: "S", name: statement.name }), serialize.sync()]);
  }

  async function execute<T>(statement: Statement, params: unknown[], options: QueryOptions | undefined): Promise<Results<T>> {
    const values: BindValues = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = client.serializers[statement.paramTypes[i]];
      return serializer ? serializer(value) : String(value);
    });
    const bind = serialize.bind({ statement: statement.name, values });
    const messages = await send([bind, serialize.describe({ type: "P" }), serialize.execute({}), serialize.sync()]);
    return parse.parseResults(messages, client.parsers, options)[0] as Results<T>;
  }

  client.query = (<T>(sql: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> => {
    if (!isSelect(sql) || !plain(options)) return query<T>(sql, params, options);
    return client._runExclusiveTransaction(() => client._runExclusiveQuery(() => run<T>(sql, params, options)));
  }) as PGlite["query"];
  return client;
}
