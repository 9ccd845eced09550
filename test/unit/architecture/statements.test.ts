import { beforeAll, describe, expect, it } from 'vitest';
import { folderOf } from '../../support/import-graph.ts';
import { loadGraph, sourceOf } from './rules.ts';

/** The rules read in statements, in every folder of src/: SQL, the clock, swallowed failures. */

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

let files: string[];
/** Each line of a file, its comments taken out: `file:line` → code. */
const codeLines = (file: string) =>
  sourceOf(file)
    .split('\n')
    .map((line, index) => [`${file}:${index + 1}`, line.replace(/\/\/.*$|^\s*\*.*$|\/\*\*.*$/, '')] as const);

describe('architecture: statements', () => {
  beforeAll(async () => {
    files = Object.keys(await loadGraph());
  }, 60_000);

  it('keeps SQL in storage (src/db), repositories (*-repository.ts) and budget stores, in every folder', () => {
    // A value import of drizzle-orm or of a table is what writing a query takes; a type import is not.
    const query =
      /^import (?!type )[^;]*from '(?:drizzle-orm(?:\/pg-core)?|(?:\.\.\/)+db\/(?:schema|tables|[\w-]+-tables)\.ts)';$/m;
    const offenders = files
      .filter((file) => folderOf(file) !== 'db')
      // A budget store in PostgreSQL is the leased counts' repository: its statements are the atomic lease.
      .filter((file) => !file.endsWith('-repository.ts') && !file.endsWith('-budget-store.ts'))
      .filter((file) => !SQL_OUTSIDE_REPOSITORIES.includes(file))
      .filter((file) => query.test(sourceOf(file)));
    expect(offenders).toEqual([]);
    // The rule reads files: a repository does hold a query.
    expect(query.test(sourceOf('revocation/instance-repository.ts'))).toBe(true);
  });

  it('reads time only through src/shared/clock.ts: no Date.now(), new Date() or performance.now() elsewhere', () => {
    const reading = /\bDate\.now\(\)|\bnew Date\(\)|\bperformance\.now\(\)/;
    const offenders = files
      .filter((file) => file !== 'shared/clock.ts')
      .flatMap(codeLines)
      .filter(([, code]) => reading.test(code))
      .map(([where]) => where)
      .filter((where) => !CLOCK_READ_DIRECTLY.some((file) => where.startsWith(`${file}:`)));
    expect(offenders).toEqual([]);
    // The rule reads code, not comments: the clock itself does read the system clock.
    expect(codeLines('shared/clock.ts').some(([, code]) => reading.test(code))).toBe(true);
  });

  it('gives every swallowed failure (.catch(() => {}) or undefined) a comment saying why, in every folder', () => {
    const swallowed = /\.catch\(\(\) => (?:\{\}|undefined)\)/;
    const offenders = files.flatMap((file) => {
      const lines = sourceOf(file).split('\n');
      return lines.flatMap((line, index) =>
        swallowed.test(line) && !lines.slice(Math.max(0, index - 3), index + 1).some((near) => near.includes('//'))
          ? [`${file}:${index + 1}`]
          : [],
      );
    });
    expect(offenders).toEqual([]);
  });
});
