import { readFileSync } from 'node:fs';
import { folderOf, importGraphOfSrc, ROOT } from '../../support/import-graph.ts';

/**
 * The house rules as data (STYLE.md, habits 1 and 12; docs/architecture.md), shared by the
 * architecture tests of this folder: imports.test.ts (layers and order), statements.test.ts (SQL,
 * the clock, swallowed failures), files.test.ts (length, dead exports), keys.test.ts (the rooms of
 * src/keys).
 *
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
export const LAYERS = {
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
export type Layer = keyof typeof LAYERS;

/** The rules, as data: the layers a layer's files may not import. */
export const FORBIDDEN: Record<Layer, readonly Layer[]> = {
  foundation: ['features', 'composition', 'problems', 'transports', 'process', 'entries'],
  features: ['composition', 'problems', 'transports', 'process', 'entries'],
  composition: ['problems', 'transports', 'process', 'entries'],
  // The mapping needs no feature: it reads the catalog (shared) and whether the database is away (db).
  problems: ['features', 'composition', 'transports', 'process', 'entries'],
  transports: ['process', 'entries'],
  process: ['entries'],
  entries: [],
};

export const DECLARED: readonly string[] = Object.values(LAYERS).flat();

/** src-relative file → src-relative files it imports. */
export const loadGraph = importGraphOfSrc;

/** The longest declared path holding a file: `limits/budget/lease.ts` → `limits/budget`, `limits/fields.ts` → `limits`. */
export const featureOf = (file: string) =>
  DECLARED.filter((name) => file === name || file.startsWith(`${name}/`)).reduce(
    (longest, name) => (name.length > longest.length ? name : longest),
    '',
  );
export const layerOf = (file: string): Layer | undefined =>
  (Object.keys(LAYERS) as Layer[]).find((layer) => (LAYERS[layer] as readonly string[]).includes(folderOf(file)));
/** The graph's entries whose file sits in one of `folders`. */
export const importsIn = (graph: Record<string, string[]>, folders: readonly string[]) =>
  Object.entries(graph).filter(([file]) => folders.includes(folderOf(file)));
/** A file of src/, by its src-relative path. */
export const sourceOf = (file: string) => readFileSync(`${ROOT}src/${file}`, 'utf8');
