import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { hasValidChecksum } from '../keys/format/checksum.ts';
import { hintOf } from '../keys/format/secret.ts';
import { InvalidRequestError } from '../shared/errors.ts';
import { ancestorGitignores, type IgnoreFile, isIgnored, readGitignore } from './gitignore.ts';

/**
 * Finds airkey keys in files and folders (docs/cli.md `scan`). Transport-free: the CLI verb only
 * prints what this returns. The key itself stays in memory for `--report`; callers print the hint.
 */

/** The same regex as the gitleaks rule (.gitleaks.toml): a 69-character run or `xask_…` is not a key. */
export const KEY_CANDIDATE = /\bask_[A-Za-z0-9]{64}\b/g;

export const SKIPPED_FOLDERS = new Set(['.git', 'node_modules']);
export const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** Like git and grep: a NUL byte in the first 8 KB means binary. */
const BINARY_SNIFF_BYTES = 8192;
const READS_IN_FLIGHT = 16;

export type Finding = { file: string; line: number; hint: string; key: string };
export type ScanResult = { findings: Finding[]; filesScanned: number; skipped: { binary: number; tooLarge: number } };
export type ScanOptions = {
  maxFileBytes?: number;
  onProgress?: (filesScanned: number) => void;
  progressEvery?: number;
};

/** Keys with a valid checksum in `text`, with 1-based line numbers. Look-alikes are not keys. */
export function findKeysInText(text: string): Array<{ line: number; key: string }> {
  if (!text.includes('ask_')) return [];
  const found: Array<{ line: number; key: string }> = [];
  let line = 1;
  let counted = 0;
  for (const match of text.matchAll(KEY_CANDIDATE)) {
    if (!hasValidChecksum(match[0])) continue;
    for (let i = counted; i < match.index; i++) if (text.charCodeAt(i) === 10) line++;
    counted = match.index;
    found.push({ line, key: match[0] });
  }
  return found;
}

export async function scanPaths(paths: readonly string[], options: ScanOptions = {}): Promise<ScanResult> {
  const roots = paths.length > 0 ? paths : ['.'];
  const kinds = await Promise.all(
    // A path that cannot be read is reported as missing (no stats), not a crash of the scan.
    roots.map(async (path) => ({ path, stats: await stat(path).catch(() => undefined) })),
  );
  const missing = kinds.find((k) => !k.stats);
  if (missing) throw InvalidRequestError.field('path', `${missing.path}: no such file or directory`);

  const state: ScanResult = { findings: [], filesScanned: 0, skipped: { binary: 0, tooLarge: 0 } };
  const limit = options.maxFileBytes ?? MAX_FILE_BYTES;
  /** The keys in one file, or none when it is too large, binary, or vanished since the listing. */
  const scanFile = async (shown: string): Promise<Finding[]> => {
    // Gone or unreadable since the listing: nothing to scan in it.
    const size = (await stat(shown).catch(() => undefined))?.size;
    if (size === undefined) return [];
    if (size > limit) {
      state.skipped.tooLarge++;
      return [];
    }
    // As above: a file that vanished or cannot be read holds no key to report.
    const content = await readFile(shown).catch(() => undefined);
    if (!content) return [];
    if (content.subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
      state.skipped.binary++;
      return [];
    }
    state.filesScanned++;
    if (options.onProgress && state.filesScanned % (options.progressEvery ?? 1000) === 0)
      options.onProgress(state.filesScanned);
    return findKeysInText(content.toString('utf8')).map(({ line, key }) => ({
      file: shown,
      line,
      hint: hintOf(key),
      key,
    }));
  };

  const walk = async (shown: string, absolute: string, stack: readonly IgnoreFile[]): Promise<void> => {
    const own = readGitignore(absolute);
    const ignores = own ? [...stack, own] : stack;
    let entries: Dirent[];
    try {
      entries = await readdir(absolute, { withFileTypes: true });
    } catch {
      return; // unreadable folder: nothing to scan there
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const files: string[] = [];
    const folders: Array<[string, string]> = [];
    for (const entry of entries) {
      // Symbolic links are not followed: no loops, no scanning outside the tree.
      if (entry.isSymbolicLink()) continue;
      const childAbsolute = join(absolute, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name) && !isIgnored(ignores, childAbsolute, true))
          folders.push([join(shown, entry.name), childAbsolute]);
      } else if (entry.isFile() && !isIgnored(ignores, childAbsolute, false)) files.push(join(shown, entry.name));
    }
    // A few reads in flight hide file-system latency; the findings keep a stable order.
    for (let start = 0; start < files.length; start += READS_IN_FLIGHT) {
      for (const found of await Promise.all(files.slice(start, start + READS_IN_FLIGHT).map(scanFile)))
        state.findings.push(...found);
    }
    for (const [childShown, childAbsolute] of folders) await walk(childShown, childAbsolute, ignores);
  };

  for (const { path, stats } of kinds) {
    // A file named on the command line is scanned even if ignored: the user asked for it.
    if (stats!.isDirectory()) await walk(path, resolve(path), ancestorGitignores(resolve(path)));
    else state.findings.push(...(await scanFile(path)));
  }
  return state;
}

/** Each key once, in the order found: what a leak report sends. */
export function distinctKeys(findings: readonly Finding[]): string[] {
  return [...new Set(findings.map((f) => f.key))];
}
