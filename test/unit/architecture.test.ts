import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The house rules a reader relies on (STYLE.md, habits 1 and 12; the README's Layout), checked on
 * the import graph of every file in src/: no cycles, a core that knows no transport, vocabulary and
 * storage below the features, arrows pointing down.
 */
type MadgeResult = { circular(): string[][]; obj(): Record<string, string[]> };
type Madge = (paths: string[], config: Record<string, unknown>) => Promise<MadgeResult>;
// madge ships CommonJS without types.
const madge = createRequire(import.meta.url)('madge') as Madge;

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The layers, bottom up. A file at the top of src/ is its own "folder" (`config.ts`).
 * - foundation: the vocabulary, storage, the change feed, metrics and config; imports no feature.
 * - features: what the product does; they import the foundation and each other, arrows one way.
 * - composition: `app/` builds the services from the features; it imports no transport.
 * - transports: thin adapters over the services (Fastify, MCP, the admin socket).
 * - process: what runs them: `airkey serve` (`server.ts`) and the command line (`cli/`, commander).
 * - entries: the types handed to the back office (`contracts.ts`); nothing in src/ imports it.
 */
const LAYERS = {
  foundation: ['shared', 'db', 'bus', 'metrics', 'config.ts'],
  features: [
    'keys',
    'users',
    'tenants',
    'sessions',
    'second-factors',
    'flights',
    'audit',
    'usage',
    'webhooks',
    'ratelimit',
    'quotas',
    'throttle',
    'telemetry',
    'scan',
    'sso',
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
const folderOf = (file: string) => file.split('/')[0]!;
const layerOf = (file: string): Layer | undefined =>
  (Object.keys(LAYERS) as Layer[]).find((layer) => (LAYERS[layer] as readonly string[]).includes(folderOf(file)));
const importsOf = (folders: readonly string[]) =>
  Object.entries(graph).filter(([file]) => folders.includes(folderOf(file)));

describe('architecture', () => {
  beforeAll(async () => {
    graph = (
      await madge(['src'], { baseDir: `${ROOT}src`, fileExtensions: ['ts'], tsConfig: `${ROOT}tsconfig.json` })
    ).obj();
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
    expect(graph['keys/key-check.ts']).toContain('keys/decide.ts');
    expect(graph['http/app.ts']).toContain('app/services.ts');
  });

  it('places every folder and top-level file of src/ in exactly one layer', () => {
    const entries = readdirSync(`${ROOT}src`, { withFileTypes: true }).map((entry) => entry.name);
    const placed: string[] = Object.values(LAYERS).flat();
    expect(entries.filter((name) => !placed.includes(name))).toEqual([]);
    expect(placed.filter((name) => !entries.includes(name))).toEqual([]);
    expect(new Set(placed).size).toBe(placed.length);
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

  it('has no two features import each other: between features, arrows point one way', () => {
    const arrows = new Set(
      importsOf(LAYERS.features).flatMap(([file, deps]) =>
        deps
          .filter((dep) => layerOf(dep) === 'features' && folderOf(dep) !== folderOf(file))
          .map((dep) => `${folderOf(file)} -> ${folderOf(dep)}`),
      ),
    );
    const both = [...arrows].filter((arrow) => arrows.has(arrow.split(' -> ').reverse().join(' -> ')));
    expect(both).toEqual([]);
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
