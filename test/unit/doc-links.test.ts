import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/import-graph.ts';

/** The markdown a reader follows links through: README.md and docs/*.md. */
const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The text outside fenced code blocks, where links and headings mean what they say. */
const prose = (text: string) => text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');

/** GitHub's anchor for a heading: rendered text, lower case, punctuation dropped, each space a hyphen. */
export function githubSlug(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*~]/g, '');
  return rendered
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor a document has: each heading's slug, repeats numbered -1, -2 as GitHub does. */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of prose(readFileSync(join(ROOT, file), 'utf8')).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = githubSlug(heading!);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Relative links of a document as `target#anchor` (no scheme, no site-absolute path). */
function linksOf(file: string): string[] {
  const text = prose(readFileSync(join(ROOT, file), 'utf8')).replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('/'));
}

describe('links between the documents', () => {
  it('reads GitHub anchors as GitHub writes them (so the check below can fail)', () => {
    expect(githubSlug('Rate limits')).toBe('rate-limits');
    expect(githubSlug('What `airkey serve` does, step by step')).toBe('what-airkey-serve-does-step-by-step');
    expect(githubSlug('Keys & secrets (v2)')).toBe('keys--secrets-v2');
  });

  it.each(DOCUMENTS)('%s links only to files and headings that exist', (file) => {
    const broken = linksOf(file).filter((link) => {
      const [path, anchor] = link.split('#') as [string, string | undefined];
      const target = path === '' ? join(ROOT, file) : join(ROOT, dirname(file), decodeURI(path));
      if (!existsSync(target)) return true;
      if (anchor === undefined || anchor === '') return false;
      if (statSync(target).isDirectory() || !target.endsWith('.md')) return true;
      return !anchorsOf(relative(ROOT, target)).has(decodeURIComponent(anchor).toLowerCase());
    });
    expect(broken).toEqual([]);
  });
});
