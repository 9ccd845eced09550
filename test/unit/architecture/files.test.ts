import { beforeAll, describe, expect, it } from 'vitest';
import { unusedExports } from '../../support/export-use.ts';
import { loadGraph, sourceOf } from './rules.ts';

/** The rules read per file of src/: its length, and exports something reaches. */

/**
 * The types handed to the back office: the contract is kept whole, whether or not a page reads
 * each type yet.
 */
const ENTRIES = ['contracts.ts'];

let files: string[];

describe('architecture: files', () => {
  beforeAll(async () => {
    files = Object.keys(await loadGraph());
  }, 60_000);

  it('keeps every file of src/ readable in one sitting: at most 250 lines', () => {
    const long = files
      .map((file) => [file, sourceOf(file).trimEnd().split('\n').length] as const)
      .filter(([, lines]) => lines > 250)
      .map(([file, lines]) => `${file}: ${lines}`);
    expect(long).toEqual([]);
  });

  it('exports nothing that no file imports and its own file never uses', { timeout: 30_000 }, () => {
    const unused = unusedExports().filter((found) => !ENTRIES.some((entry) => found.startsWith(`${entry}:`)));
    expect(unused).toEqual([]);
  });
});
