import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The house rules a reader relies on (STYLE.md, habits 1 and 12), checked on the import graph:
 * no cycles, a core that knows no transport, vocabulary below the features, arrows pointing down.
 */
type MadgeResult = { circular(): string[][]; obj(): Record<string, string[]> };
type Madge = (paths: string[], config: Record<string, unknown>) => Promise<MadgeResult>;
// madge ships CommonJS without types.
const madge = createRequire(import.meta.url)('madge') as Madge;

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CORE = ['keys', 'users', 'flights', 'tenants'];
const FEATURES = [...CORE, 'sessions', 'audit', 'usage'];
const ADAPTERS = ['http', 'mcp', 'cli', 'admin', 'app'];
/** Below every feature: the storage, the change feed and the shared vocabulary. */
const FOUNDATION = ['shared', 'db', 'bus'];
/** Features and the cross-cutting parts that serve them; none may reach up into an adapter. */
const BELOW_ADAPTERS = [...FEATURES, ...FOUNDATION, 'webhooks', 'telemetry', 'ratelimit', 'throttle', 'metrics'];

/** src-relative file → src-relative files it imports. */
let graph: Record<string, string[]>;
const folderOf = (file: string) => file.split('/')[0]!;
const importsOf = (folders: string[]) =>
  Object.entries(graph).filter(([file]) => folders.includes(folderOf(file)) && file.includes('/'));

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

  it('keeps fastify, MCP and commander out of keys, users, flights and tenants', () => {
    const transport = /(?:from|import)\s*\(?\s*'(fastify|@fastify\/[^']+|@modelcontextprotocol\/[^']+|commander)'/;
    const offenders = importsOf(CORE)
      .map(([file]) => [file, transport.exec(readFileSync(`${ROOT}src/${file}`, 'utf8'))?.[1]])
      .filter(([, found]) => found !== undefined);
    expect(offenders).toEqual([]);
  });

  it('has no feature import an adapter or the composition root', () => {
    const offenders = importsOf(FEATURES).flatMap(([file, deps]) =>
      deps.filter((dep) => ADAPTERS.includes(folderOf(dep))).map((dep) => `${file} -> ${dep}`),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps the shared vocabulary below every feature: src/shared imports only src/shared', () => {
    const offenders = importsOf(['shared']).flatMap(([file, deps]) =>
      deps.filter((dep) => folderOf(dep) !== 'shared').map((dep) => `${file} -> ${dep}`),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps storage and the change feed below the features: db and bus import only db, bus and shared', () => {
    const offenders = importsOf(['db', 'bus']).flatMap(([file, deps]) =>
      deps.filter((dep) => !FOUNDATION.includes(folderOf(dep))).map((dep) => `${file} -> ${dep}`),
    );
    expect(offenders).toEqual([]);
  });

  it('has nothing below the adapters import one: webhooks, telemetry, rate limits and the rest stay transport-free', () => {
    const offenders = importsOf(BELOW_ADAPTERS).flatMap(([file, deps]) =>
      deps.filter((dep) => ADAPTERS.includes(folderOf(dep))).map((dep) => `${file} -> ${dep}`),
    );
    expect(offenders).toEqual([]);
  });

  it('lets arrows between features point down only: keys and flights import no other core feature', () => {
    const offenders = importsOf(['keys', 'flights']).flatMap(([file, deps]) =>
      deps
        .filter((dep) => [...CORE, 'sessions'].includes(folderOf(dep)) && folderOf(dep) !== folderOf(file))
        .map((dep) => `${file} -> ${dep}`),
    );
    expect(offenders).toEqual([]);
  });
});
