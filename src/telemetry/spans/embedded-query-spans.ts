import { context, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';

/** What of PGlite a query span wraps: its queries, its scripts and its transactions' queries. */
type Queryable = {
  query(statement: string, ...rest: never[]): Promise<unknown>;
  exec(statement: string, ...rest: never[]): Promise<unknown>;
};
export type EmbeddedClient = Queryable & {
  transaction<T>(callback: (tx: Queryable) => Promise<T>): Promise<T>;
};

/**
 * Database client spans for the embedded engine, shaped as the PostgreSQL driver's instrumentation
 * shapes them (`pg.query:{OPERATION} {database}`, `db.system.name: postgresql`, the statement
 * with its `$n` placeholders and never a parameter), so a trace reads the same in both modes. Like
 * that instrumentation here, only under a span: background work makes no traces of its own.
 */
export function traceEmbeddedQueries(client: EmbeddedClient, database: string): void {
  const tracer = trace.getTracer('airkey');
  wrapQueries(client, tracer, database);
  const transaction = client.transaction.bind(client);
  client.transaction = (callback) =>
    transaction((tx) => callback(wrapQueries(Object.create(tx) as Queryable, tracer, database)));
}

function wrapQueries<Q extends Queryable>(target: Q, tracer: Tracer, database: string): Q {
  for (const method of ['query', 'exec'] as const) {
    const run: (statement: string, ...rest: never[]) => Promise<unknown> = target[method].bind(target);
    target[method] = (statement: string, ...rest: never[]) => {
      if (!trace.getSpan(context.active())) return run(statement, ...rest);
      return tracer.startActiveSpan(
        `pg.query:${operationOf(statement)} ${database}`,
        {
          kind: SpanKind.CLIENT,
          attributes: { 'db.system.name': 'postgresql', 'db.namespace': database, 'db.query.text': statement },
        },
        async (span) => {
          try {
            return await run(statement, ...rest);
          } catch (error) {
            span.setStatus({ code: SpanStatusCode.ERROR });
            span.setAttribute('error.type', (error as { code?: string }).code ?? 'query_failed');
            throw error;
          } finally {
            span.end();
          }
        },
      );
    };
  }
  return target;
}

function operationOf(statement: string): string {
  const trimmed = statement.trimStart();
  const end = trimmed.search(/[\s;(]/);
  return (end === -1 ? trimmed : trimmed.slice(0, end)).toUpperCase();
}
