import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

/**
 * A small `.gitignore` matcher (the `ignore` package is not a dependency): names at any depth,
 * `dir/`, `*`/`?`/`[…]` globs, `/anchored` and `a/b` paths, `**`, `!negation`, `#` comments and
 * `\` escapes. As in git, the last matching rule wins and a deeper file overrides a shallower one;
 * a file inside an ignored folder stays ignored because the walker never enters that folder.
 */
type Rule = { regex: RegExp; negated: boolean; dirOnly: boolean; basenameOnly: boolean };

export type IgnoreFile = { base: string; rules: Rule[] };

export function parseGitignore(base: string, text: string): IgnoreFile {
  const rules: Rule[] = [];
  for (const rawLine of text.split(/\r?\n/)) {
    let line = rawLine.replace(/(?<!\\)\s+$/, '');
    if (line === '' || line.startsWith('#')) continue;
    const negated = line.startsWith('!');
    if (negated) line = line.slice(1);
    else if (line.startsWith('\\!') || line.startsWith('\\#')) line = line.slice(1);
    const dirOnly = line.endsWith('/');
    if (dirOnly) line = line.replace(/\/+$/, '');
    if (line === '') continue;
    // A slash at the start or in the middle anchors the pattern to this file's folder.
    const basenameOnly = !line.includes('/');
    if (line.startsWith('/')) line = line.slice(1);
    rules.push({ regex: new RegExp(`^${globToRegex(line)}$`), negated, dirOnly, basenameOnly });
  }
  return { base, rules };
}

function globToRegex(glob: string): string {
  let out = '';
  let i = 0;
  while (i < glob.length) {
    const atSegmentStart = i === 0 || glob[i - 1] === '/';
    if (atSegmentStart && glob.startsWith('**/', i)) {
      out += '(?:.*/)?'; // zero or more folders
      i += 3;
    } else if (atSegmentStart && glob.startsWith('**', i) && i + 2 === glob.length) {
      out += '.*'; // everything inside
      i += 2;
    } else {
      const c = glob[i]!;
      if (c === '*') out += '[^/]*';
      else if (c === '?') out += '[^/]';
      else if (c === '\\' && i + 1 < glob.length) out += escapeRegex(glob[++i]!);
      else if (c === '[') {
        const close = glob.indexOf(']', i + 2);
        if (close === -1) out += '\\[';
        else {
          const body = glob
            .slice(i + 1, close)
            .replace(/^!/, '^')
            .replace(/\\/g, '\\\\');
          out += `[${body}]`;
          i = close;
        }
      } else out += escapeRegex(c);
      i += 1;
    }
  }
  return out;
}

function escapeRegex(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}

/** Whether `path` (absolute) is ignored by this stack of files, shallowest first. */
export function isIgnored(stack: readonly IgnoreFile[], path: string, isDirectory: boolean): boolean {
  let ignored = false;
  for (const file of stack) {
    const rel = relative(file.base, path).split(sep).join('/');
    if (rel === '' || rel.startsWith('..')) continue;
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    for (const rule of file.rules) {
      if (rule.dirOnly && !isDirectory) continue;
      if (rule.regex.test(rule.basenameOnly ? name : rel)) ignored = !rule.negated;
    }
  }
  return ignored;
}

export function readGitignore(dir: string): IgnoreFile | undefined {
  const path = join(dir, '.gitignore');
  if (!existsSync(path)) return undefined;
  try {
    return parseGitignore(dir, readFileSync(path, 'utf8'));
  } catch {
    return undefined; // unreadable: scan rather than silently skip
  }
}

/**
 * The `.gitignore` files above `dir` up to its repository's root (the nearest folder holding
 * `.git`), shallowest first, so that scanning `src/` still honours the root file. Outside a
 * repository: none.
 */
export function ancestorGitignores(dir: string): IgnoreFile[] {
  const ancestors: string[] = [];
  let current = dirname(dir);
  let root: string | undefined = existsSync(join(dir, '.git')) ? dir : undefined;
  while (!root) {
    ancestors.unshift(current);
    if (existsSync(join(current, '.git'))) root = current;
    else if (dirname(current) === current) return [];
    else current = dirname(current);
  }
  return ancestors
    .filter((a) => a !== dir)
    .map(readGitignore)
    .filter((f): f is IgnoreFile => f !== undefined);
}
