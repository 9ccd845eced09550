import { beforeAll, describe, expect, it } from 'vitest';
import { unusedExports } from '../../support/export-use.ts';
import { loadGraph, sourceOf } from './rules.ts';

/** The rules read per file of src/: its length, and exports something reaches. */

/**
 * The types handed to the back office: the contract is kept whole, whether or not a page reads
 * each type yet.
 */
const ENTRIES = ['contracts.ts'];
/**
 * Exports nothing reaches, left by the admission's move (src/admission, src/keys/check,
 * src/limits, owned by that work): listed so the rule holds everywhere else, and checked below to
 * still be unused, so each leaves the list when it goes. `keys/check/authenticate.ts` is a whole
 * file nothing imports any more.
 */
const LEFT_BY_THE_ADMISSION: readonly string[] = [
  'admission/outcome.ts: AdmissionStatus',
  'keys/check/authenticate.ts: authenticate',
  'limits/budget/budget-store.ts: SLICE_DIVISOR',
  'limits/budget/budget-store.ts: Lease',
  'limits/index.ts: LimitedKey',
  'limits/index.ts: Meter',
  'limits/index.ts: KeyLimitsDeps',
];

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
    expect(unused.filter((found) => !LEFT_BY_THE_ADMISSION.includes(found))).toEqual([]);
    // The list shrinks: an entry whose export is gone or used again is taken off it.
    expect(LEFT_BY_THE_ADMISSION.filter((listed) => !unused.includes(listed))).toEqual([]);
  });
});
