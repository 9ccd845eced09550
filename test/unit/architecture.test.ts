import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { folderOf, importGraphOfSrc, madge, ROOT } from '../support/import-graph.ts';

/**
 * The house rules a reader relies on (STYLE.md, habits 1 and 12; docs/architecture.md), checked on
 * the import graph of every file in src/: no cycles, a core that knows no transport, vocabulary and
 * storage below the features, arrows pointing down. The rooms inside src/keys: architecture-keys.test.ts.
 */
/**
 * The layers, bottom up. A file at the top of src/ is its own "folder" (`config.ts`).
 * - foundation: the vocabulary, storage, revocation (the change feed, acknowledgements, the lease
 *   and the key cache), metrics and config; imports no feature. Inside it, storage (`db/`) sits
 *   under everything but the vocabulary.
 * - features: what the product does; they import the foundation and the features listed before
 *   them, so a new feature's place in the list says what it may use. A feature may be a room of a
 *   folder (`limits/budget`): a file belongs to the longest declared path that holds it. A
 *   folder's rooms sit together in the order: no folder is both below and above another.
 * - composition: `app/` builds the services from the features; it imports no transport.
 * - problems: errors as RFC 9457 problem details (`problems/`), the one mapping every transport
 *   answers with; under the transports, so none of them takes it from another.
 * - transports: thin adapters over the services (Fastify, MCP, the admin socket).
 * - process: what runs them: `airkey serve` (`server.ts`) and the command line (`cli/`, commander).
 * - entries: the types handed to the back office (`contracts.ts`); nothing in src/ imports it.
 */
const LAYERS = {
  foundation: ['shared', 'db', 'revocation', 'metrics', 'config.ts'],
  // Bottom up: a feature imports only the features listed before it.
  features: [
    'audit',
    'throttle',
    'usage',
    'keys',
    // The limits build on the key core; their words (src/shared/limit-terms.ts) sit under both.
    'limits/budget',
    'limits/quota',
    'limits',
    'scan',
    'telemetry',
    'tenants',
    'users',
    'second-factors',
    'sessions',
    'flights',
    'request-log',
    'webhooks',
    'sso',
    'oauth',
    // A request's way from its credential to its route: the key check, the limits, and (next) OAuth tokens.
    'admission',
  ],
  composition: ['app'],
  problems: ['problems'],
  transports: ['http', 'mcp', 'admin'],
  process: ['server.ts', 'cli'],
  entries: ['contracts.ts'],
} as const satisfies Record<string, readonly string[]>;
type Layer = keyof typeof LAYERS;

/** The rules, as data: the layers a layer's files may not import. */
const FORBIDDEN: Record<Layer, readonly Layer[]> = {
  foundation: ['features', 'composition', 'problems', 'transports', 'process', 'entries'],
  features: ['composition', 'problems', 'transports', 'process', 'entries'],
  composition: ['problems', 'transports', 'process', 'entries'],
  // The mapping needs no feature: it reads the catalog (shared) and whether the database is away (db).
  problems: ['features', 'composition', 'transports', 'process', 'entries'],
  transports: ['process', 'entries'],
  process: ['entries'],
  entries: [],
};

/**
 * The one file with SQL outside a repository: the request log's day partitions are DDL (create,
 * attach, detach) run under an advisory lock, which its owners keep beside the partition rules.
 */
const SQL_OUTSIDE_REPOSITORIES: readonly string[] = ['request-log/request-log-partitions.ts'];
/**
 * The one file that reads the system clock beside the injected one: the OIDC library checks token
 * times against `Date.now()`, so the sign-in client tells it the skew between the two.
 */
const CLOCK_READ_DIRECTLY: readonly string[] = ['sso/oidc-client.ts'];

/**
 * The adapters: each answers in its own way and none imports another; what they share sits below
 * them (problem mapping in src/problems, the admission in src/admission). MCP gets the admission
 * hook from the app it is served on (`app.admissionHook`), not from src/http.
 */
const ADAPTERS = ['http', 'mcp', 'admin', 'cli'] as const;
/**
 * The one arrow between adapters: the command line drives the admin operations, here or through
 * the running server's admin socket, so it is that socket's client.
 */
const ADAPTER_IMPORTS: readonly string[] = ['cli -> admin'];

/** src-relative file → src-relative files it imports. */
let graph: Record<string, string[]>;
const DECLARED: readonly string[] = Object.values(LAYERS).flat();
/** The longest declared path holding a file: `limits/budget/lease.ts` → `limits/budget`, `limits/fields.ts` → `limits`. */
const featureOf = (file: string) =>
  DECLARED.filter((name) => file === name || file.startsWith(`${name}/`)).reduce(
    (longest, name) => (name.length > longest.length ? name : longest),
    '',
  );
const layerOf = (file: string): Layer | undefined =>
  (Object.keys(LAYERS) as Layer[]).find((layer) => (LAYERS[layer] as readonly string[]).includes(folderOf(file)));
const importsOf = (folders: readonly string[]) =>
  Object.entries(graph).filter(([file]) => folders.includes(folderOf(file)));

describe('architecture', () => {
  beforeAll(async () => {
    graph = await importGraphOfSrc();
  }, 60_000);

  it('has no circular import in the server or the back office', { timeout: 60_000 }, async () => {
    const result = await madge(['src', 'web/src'], {
      baseDir: ROOT,
      fileExtensions: ['ts', 'tsx'],
      tsConfig: `${ROOT}tsconfig.json`,
    });
    expect(result.circular()).toEqual([]);
  });

  it('reads the whole graph, paths relative to src (so the rules below can fail)', () => {
    expect(graph['keys/check/key-check.ts']).toContain('keys/check/decide.ts');
    expect(graph['http/app.ts']).toContain('app/services.ts');
  });

  it('places every folder and top-level file of src/ in exactly one layer', () => {
    const entries = readdirSync(`${ROOT}src`, { withFileTypes: true }).map((entry) => entry.name);
    const placed = DECLARED.filter((name) => !name.includes('/'));
    expect(entries.filter((name) => !placed.includes(name))).toEqual([]);
    expect(placed.filter((name) => !entries.includes(name))).toEqual([]);
    expect(new Set(DECLARED).size).toBe(DECLARED.length);
  });

  it('places every folder of src/limits in the order, and declares no room that is not a folder', () => {
    const folders = readdirSync(`${ROOT}src/limits`, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `limits/${entry.name}`);
    const rooms = DECLARED.filter((name) => name.includes('/'));
    expect(folders.filter((folder) => !rooms.includes(folder))).toEqual([]);
    expect(rooms.filter((room) => !folders.includes(room))).toEqual([]);
    // Together in the order: a folder's rooms on either side of another feature would let the two import each other.
    const order: readonly string[] = LAYERS.features;
    const places = order.flatMap((name, index) => (folderOf(name) === 'limits' ? [index] : []));
    expect(places.at(-1)! - places[0]!).toBe(places.length - 1);
  });

  it.each(Object.keys(FORBIDDEN) as Layer[])('has no %s file import a layer above it', (layer) => {
    const forbidden = FORBIDDEN[layer];
    const offenders = importsOf(LAYERS[layer]).flatMap(([file, deps]) =>
      deps.filter((dep) => forbidden.includes(layerOf(dep)!)).map((dep) => `${file} -> ${dep}`),
    );
    expect(offenders).toEqual([]);
  });

  it('has no adapter (http, mcp, admin, cli) import another: shared mapping sits below them', () => {
    const adapters: readonly string[] = ADAPTERS;
    const offenders = importsOf(ADAPTERS).flatMap(([file, deps]) =>
      deps
        .filter((dep) => adapters.includes(folderOf(dep)) && folderOf(dep) !== folderOf(file))
        .filter((dep) => !ADAPTER_IMPORTS.includes(`${folderOf(file)} -> ${folderOf(dep)}`))
        .map((dep) => `${file} -> ${dep}`),
    );
    expect(offenders).toEqual([]);
    expect(graph['admin/admin-socket.ts']).toContain('problems/problem.ts');
    expect(graph['mcp/tools.ts']).toContain('problems/problem.ts');
  });

  it('keeps the shared vocabulary at the bottom: src/shared imports only src/shared', () => {
    const offenders = importsOf(['shared']).flatMap(([file, deps]) =>
      deps.filter((dep) => folderOf(dep) !== 'shared').map((dep) => `${file} -> ${dep}`),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps storage under the rest of the foundation: src/db imports only src/db and src/shared', () => {
    const offenders = importsOf(['db']).flatMap(([file, deps]) =>
      deps.filter((dep) => !['db', 'shared'].includes(folderOf(dep))).map((dep) => `${file} -> ${dep}`),
    );
    expect(offenders).toEqual([]);
  });

  it('gives revocation one room: the change feed, acknowledgements, the lease, the key cache and KeyChange', () => {
    for (const file of ['change.ts', 'change-feed.ts', 'acknowledgements.ts', 'lease.ts', 'key-cache.ts'])
      expect(Object.keys(graph)).toContain(`revocation/${file}`);
    expect(graph['revocation/change-feed.ts']).toContain('db/unit-of-work.ts');
  });

  it('keeps fastify, MCP and commander out of every feature', () => {
    const transport = /(?:from|import)\s*\(?\s*'(fastify|@fastify\/[^']+|@modelcontextprotocol\/[^']+|commander)'/;
    // Request tracing hooks into Fastify's request lifecycle: it names Fastify's types, never its code.
    const typeOnly = /^import type .*'fastify';$/gm;
    const offenders = importsOf(LAYERS.features)
      .map(([file]) => [file, readFileSync(`${ROOT}src/${file}`, 'utf8')] as const)
      .map(([file, text]) => [file, folderOf(file) === 'telemetry' ? text.replace(typeOnly, '') : text] as const)
      .map(([file, text]) => [file, transport.exec(text)?.[1]])
      .filter(([, found]) => found !== undefined);
    expect(offenders).toEqual([]);
  });

  it('has each feature import only the features declared before it', () => {
    const order: readonly string[] = LAYERS.features;
    const offenders = importsOf(LAYERS.features).flatMap(([file, deps]) =>
      deps
        .filter((dep) => layerOf(dep) === 'features' && order.indexOf(featureOf(dep)) > order.indexOf(featureOf(file)))
        .map((dep) => `${file} -> ${dep}`),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps the arrow between the limits one way: their lower rooms import nothing of the limits root', () => {
    const offenders = importsOf(['limits']).flatMap(([file, deps]) =>
      featureOf(file) === 'limits'
        ? []
        : deps.filter((dep) => featureOf(dep) === 'limits').map((dep) => `${file} -> ${dep}`),
    );
    expect(offenders).toEqual([]);
  });

  it('has no two folders of src/ import each other, whatever their rooms', () => {
    const arrows = new Set(
      Object.entries(graph).flatMap(([file, deps]) =>
        deps.filter((dep) => folderOf(dep) !== folderOf(file)).map((dep) => `${folderOf(file)} -> ${folderOf(dep)}`),
      ),
    );
    const both = [...arrows].filter((arrow) => arrows.has(arrow.split(' -> ').reverse().join(' -> ')));
    expect(both).toEqual([]);
  });

  it("keeps telemetry's three rooms one way: the SDK's set-up over our spans over the export", () => {
    // Each room may import only the rooms before it; no file of telemetry sits outside a room.
    const rooms = ['export', 'spans', 'setup'];
    const roomOfTelemetry = (file: string) => (file.startsWith('telemetry/') ? file.split('/')[1]! : undefined);
    const files = Object.keys(graph).filter((file) => folderOf(file) === 'telemetry');
    expect(files.filter((file) => !rooms.includes(roomOfTelemetry(file)!))).toEqual([]);
    const offenders = files.flatMap((file) =>
      graph[file]!.filter((dep) => folderOf(dep) === 'telemetry')
        .filter((dep) => rooms.indexOf(roomOfTelemetry(dep)!) > rooms.indexOf(roomOfTelemetry(file)!))
        .map((dep) => `${file} -> ${dep}`),
    );
    expect(offenders).toEqual([]);
    expect(graph['telemetry/setup/sdk.ts']).toContain('telemetry/export/worker-span-processor.ts');
  });

  it('keeps src/keys clear of the limits: the limits read the key core, never the other way', () => {
    const offenders = importsOf(['keys']).flatMap(([file, deps]) =>
      deps.filter((dep) => folderOf(dep) === 'limits').map((dep) => `${file} -> ${dep}`),
    );
    expect(offenders).toEqual([]);
    // The rule above reads the graph: the limits do import the key core, and both read the words.
    expect(graph['limits/quota-notices.ts']).toContain('keys/key-view.ts');
    expect(graph['keys/key-view.ts']).toContain('shared/limit-terms.ts');
  });

  it('keeps SQL in storage (src/db), repositories (*-repository.ts) and budget stores, in every folder', () => {
    // A value import of drizzle-orm or of a table is what writing a query takes; a type import is not.
    const query =
      /^import (?!type )[^;]*from '(?:drizzle-orm(?:\/pg-core)?|(?:\.\.\/)+db\/(?:schema|tables|[\w-]+-tables)\.ts)';$/m;
    const offenders = Object.keys(graph)
      .filter((file) => folderOf(file) !== 'db')
      // A budget store in PostgreSQL is the leased counts' repository: its statements are the atomic lease.
      .filter((file) => !file.endsWith('-repository.ts') && !file.endsWith('-budget-store.ts'))
      .filter((file) => !SQL_OUTSIDE_REPOSITORIES.includes(file))
      .filter((file) => query.test(readFileSync(`${ROOT}src/${file}`, 'utf8')));
    expect(offenders).toEqual([]);
    // The rule reads files: a repository does hold a query.
    expect(query.test(readFileSync(`${ROOT}src/revocation/instance-repository.ts`, 'utf8'))).toBe(true);
  });

  it('reads time only through src/shared/clock.ts: no Date.now(), new Date() or performance.now() elsewhere', () => {
    const reading = /\bDate\.now\(\)|\bnew Date\(\)|\bperformance\.now\(\)/;
    const offenders = Object.keys(graph)
      .filter((file) => file !== 'shared/clock.ts')
      .flatMap((file) =>
        readFileSync(`${ROOT}src/${file}`, 'utf8')
          .split('\n')
          .map((line, index) => [`${file}:${index + 1}`, line.replace(/\/\/.*$|^\s*\*.*$|\/\*\*.*$/, '')] as const),
      )
      .filter(([, code]) => reading.test(code))
      .map(([where]) => where)
      .filter((where) => !CLOCK_READ_DIRECTLY.some((file) => where.startsWith(`${file}:`)));
    expect(offenders).toEqual([]);
  });

  it('gives every swallowed failure (.catch(() => {}) or undefined) a comment saying why, in every folder', () => {
    const swallowed = /\.catch\(\(\) => (?:\{\}|undefined)\)/;
    const offenders = Object.keys(graph).flatMap((file) => {
      const lines = readFileSync(`${ROOT}src/${file}`, 'utf8').split('\n');
      return lines.flatMap((line, index) =>
        swallowed.test(line) && !lines.slice(Math.max(0, index - 3), index + 1).some((near) => near.includes('//'))
          ? [`${file}:${index + 1}`]
          : [],
      );
    });
    expect(offenders).toEqual([]);
  });

  it('keeps every file of src/ readable in one sitting: at most 250 lines', () => {
    const long = Object.keys(graph)
      .map((file) => [file, readFileSync(`${ROOT}src/${file}`, 'utf8').trimEnd().split('\n').length] as const)
      .filter(([, lines]) => lines > 250)
      .map(([file, lines]) => `${file}: ${lines}`);
    expect(long).toEqual([]);
  });

  it("changes keys only through the key services: no other feature imports the keys' repository", () => {
    const offenders = importsOf(LAYERS.features).flatMap(([file, deps]) =>
      deps
        .filter((dep) => dep === 'keys/key-repository.ts' && folderOf(file) !== 'keys')
        // The tracing wrapper decorates the repository the key check reads; it writes nothing.
        .filter(() => file !== 'telemetry/spans/key-lookup-span.ts')
        .map((dep) => `${file} -> ${dep}`),
    );
    expect(offenders).toEqual([]);
  });
});
