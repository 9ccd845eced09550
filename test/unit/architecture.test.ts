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
 *   folder (`limits/rate`): a file belongs to the longest declared path that holds it, so a
 *   folder's lower rooms can sit before a feature its root comes after.
 * - composition: `app/` builds the services from the features; it imports no transport.
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
    // The limits' vocabulary and meters, which the key core names, under it; the verdict above it.
    'limits/rate',
    'limits/quota',
    'keys',
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
  ],
  composition: ['app'],
  transports: ['http', 'mcp', 'admin'],
  process: ['server.ts', 'cli'],
  entries: ['contracts.ts'],
} as const satisfies Record<string, readonly string[]>;
type Layer = keyof typeof LAYERS;

/** The rules, as data: the layers a layer's files may not import. */
const FORBIDDEN: Record<Layer, readonly Layer[]> = {
  foundation: ['features', 'composition', 'transports', 'process', 'entries'],
  features: ['composition', 'transports', 'process', 'entries'],
  composition: ['transports', 'process', 'entries'],
  transports: ['process', 'entries'],
  process: ['entries'],
  entries: [],
};

/** src-relative file → src-relative files it imports. */
let graph: Record<string, string[]>;
const DECLARED: readonly string[] = Object.values(LAYERS).flat();
/** The longest declared path holding a file: `limits/rate/lease.ts` → `limits/rate`, `limits/fields.ts` → `limits`. */
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
  });

  it.each(Object.keys(FORBIDDEN) as Layer[])('has no %s file import a layer above it', (layer) => {
    const forbidden = FORBIDDEN[layer];
    const offenders = importsOf(LAYERS[layer]).flatMap(([file, deps]) =>
      deps.filter((dep) => forbidden.includes(layerOf(dep)!)).map((dep) => `${file} -> ${dep}`),
    );
    expect(offenders).toEqual([]);
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

  it('has src/keys name the limits only through their lower rooms, never the verdict', () => {
    const offenders = importsOf(['keys']).flatMap(([file, deps]) =>
      deps.filter((dep) => featureOf(dep) === 'limits').map((dep) => `${file} -> ${dep}`),
    );
    expect(offenders).toEqual([]);
    // The rule above reads the graph: keys/ does import the lower rooms.
    expect(graph['keys/key-view.ts']).toContain('limits/quota/quota.ts');
  });

  it('keeps the SQL of keys, limits and webhooks in their repositories (*-repository.ts) and budget stores', () => {
    // A value import of drizzle-orm or of a table is what writing a query takes; a type import is not.
    const query = /^import (?!type )[^;]*from '(?:drizzle-orm|(?:\.\.\/)+db\/(?:schema|tables|[\w-]+-tables)\.ts)';$/m;
    const offenders = importsOf(['keys', 'limits', 'webhooks'])
      .map(([file]) => file)
      // A budget store in PostgreSQL is the leased counts' repository: its statements are the atomic lease.
      .filter((file) => !file.endsWith('-repository.ts') && !file.endsWith('-budget-store.ts'))
      .filter((file) => query.test(readFileSync(`${ROOT}src/${file}`, 'utf8')));
    expect(offenders).toEqual([]);
  });

  it("changes keys only through the key services: no other feature imports the keys' repository", () => {
    const offenders = importsOf(LAYERS.features).flatMap(([file, deps]) =>
      deps
        .filter((dep) => dep === 'keys/key-repository.ts' && folderOf(file) !== 'keys')
        // The tracing wrapper decorates the repository the key check reads; it writes nothing.
        .filter(() => file !== 'telemetry/key-lookup-span.ts')
        .map((dep) => `${file} -> ${dep}`),
    );
    expect(offenders).toEqual([]);
  });
});
