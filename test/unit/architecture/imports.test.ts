import { readdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { folderOf, madge, ROOT } from '../../support/import-graph.ts';
import {
  DECLARED,
  FORBIDDEN,
  featureOf,
  importsIn,
  LAYERS,
  layerOf,
  loadGraph,
  sourceOf,
  type Layer,
} from './rules.ts';

/**
 * The import rules (rules.ts holds the layers): no cycles, a core that knows no transport,
 * vocabulary and storage below the features, arrows pointing down, adapters over services only.
 */

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

let graph: Record<string, string[]>;
const importsOf = (folders: readonly string[]) => importsIn(graph, folders);

describe('architecture: imports', () => {
  beforeAll(async () => {
    graph = await loadGraph();
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

  it('gives the adapters services only: no transport or process file imports src/db or src/revocation', () => {
    const offenders = importsOf([...LAYERS.transports, ...LAYERS.process]).flatMap(([file, deps]) =>
      deps.filter((dep) => ['db', 'revocation'].includes(folderOf(dep))).map((dep) => `${file} -> ${dep}`),
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
      .map(([file]) => [file, sourceOf(file)] as const)
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
