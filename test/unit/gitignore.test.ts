import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateSecret } from '../../src/keys/format/secret.ts';
import { isIgnored, parseGitignore } from '../../src/scan/gitignore.ts';
import { scanPaths } from '../../src/scan/scanner.ts';

const BASE = '/repo';
const ignored = (patterns: string, path: string, isDirectory = false) =>
  isIgnored([parseGitignore(BASE, patterns)], `${BASE}/${path}`, isDirectory);

describe('the .gitignore matcher', () => {
  it('matches a bare name at any depth, files and folders alike', () => {
    expect(ignored('secret.txt', 'secret.txt')).toBe(true);
    expect(ignored('secret.txt', 'a/b/secret.txt')).toBe(true);
    expect(ignored('cache', 'a/cache', true)).toBe(true);
    expect(ignored('secret.txt', 'a/secret.txt.bak')).toBe(false);
  });

  it('matches dir/ only on folders', () => {
    expect(ignored('out/', 'x/out', true)).toBe(true);
    expect(ignored('out/', 'x/out', false)).toBe(false);
  });

  it('matches *.ext and ? without crossing a slash', () => {
    expect(ignored('*.log', 'deep/down/app.log')).toBe(true);
    expect(ignored('*.log', 'app.log.txt')).toBe(false);
    expect(ignored('a?c', 'abc')).toBe(true);
    expect(ignored('src/*.ts', 'src/x/y.ts')).toBe(false);
    expect(ignored('[ab].txt', 'b.txt')).toBe(true);
    expect(ignored('[!ab].txt', 'b.txt')).toBe(false);
  });

  it('anchors /name and a/b to the .gitignore folder', () => {
    expect(ignored('/build', 'build', true)).toBe(true);
    expect(ignored('/build', 'sub/build', true)).toBe(false);
    expect(ignored('docs/tmp', 'docs/tmp')).toBe(true);
    expect(ignored('docs/tmp', 'x/docs/tmp')).toBe(false);
  });

  it('reads ** as any number of folders', () => {
    expect(ignored('**/fixtures', 'fixtures', true)).toBe(true);
    expect(ignored('**/fixtures', 'a/b/fixtures', true)).toBe(true);
    expect(ignored('a/**/z.txt', 'a/z.txt')).toBe(true);
    expect(ignored('a/**/z.txt', 'a/b/c/z.txt')).toBe(true);
    expect(ignored('a/**', 'a/b/c.txt')).toBe(true);
    expect(ignored('a/**', 'b/a/c.txt')).toBe(false);
  });

  it('lets a later !negation win, ignores comments and blank lines, and honours \\# escapes', () => {
    expect(ignored('*.env\n!example.env', 'example.env')).toBe(false);
    expect(ignored('*.env\n!example.env', 'prod.env')).toBe(true);
    expect(ignored('!example.env\n*.env', 'example.env')).toBe(true);
    expect(ignored('# secret.txt\n\n', 'secret.txt')).toBe(false);
    expect(ignored('\\#notes', '#notes')).toBe(true);
  });

  it('lets a deeper .gitignore override a shallower one', () => {
    const stack = [parseGitignore('/repo', '*.env'), parseGitignore('/repo/app', '!dev.env')];
    expect(isIgnored(stack, '/repo/app/dev.env', false)).toBe(false);
    expect(isIgnored(stack, '/repo/other/dev.env', false)).toBe(true);
  });
});

describe('scanPaths in a repository', () => {
  const root = mkdtempSync(join(tmpdir(), 'airkey-gitignore-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("honours the repository root's .gitignore when scanning a subfolder", async () => {
    const kept = generateSecret();
    mkdirSync(join(root, '.git'));
    mkdirSync(join(root, 'app'));
    writeFileSync(join(root, '.gitignore'), '*.local\n');
    writeFileSync(join(root, 'app', 'settings.local'), generateSecret());
    writeFileSync(join(root, 'app', 'settings.ts'), `export const key = '${kept}';\n`);
    const result = await scanPaths([join(root, 'app')]);
    expect(result.findings.map((f) => [f.file, f.line, f.key])).toEqual([[join(root, 'app', 'settings.ts'), 1, kept]]);
    expect(result.filesScanned).toBe(1);
  });

  it('skips a file over the size limit', async () => {
    writeFileSync(join(root, 'big.txt'), `${generateSecret()}\n${'x'.repeat(2048)}`);
    const result = await scanPaths([join(root, 'big.txt')], { maxFileBytes: 1024 });
    expect(result).toEqual({ findings: [], filesScanned: 0, skipped: { binary: 0, tooLarge: 1 } });
  });
});
