import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checksumOf } from '../../../src/keys/format/checksum.ts';
import { generateSecret } from '../../../src/keys/format/secret.ts';
import { findKeysInText } from '../../../src/scan/scanner.ts';
import { airkeyChecksum, creator, findAirkeyKeys } from '../../../tools/secretlint-rule-airkey/index.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** The `regex = '''…'''` of the `airkey-api-key` rule, read from the shipped file. */
function gitleaksRule(): { regex: RegExp; keywords: string[] } {
  const toml = readFileSync(`${ROOT}.gitleaks.toml`, 'utf8');
  const table = toml.split('[[rules]]').find((t) => /^\s*id\s*=\s*"airkey-api-key"\s*$/m.test(t));
  expect(table, 'a [[rules]] table with id "airkey-api-key"').toBeDefined();
  const regex = /^\s*regex\s*=\s*'''(.*)'''\s*$/m.exec(table!)?.[1];
  const keywords = /^\s*keywords\s*=\s*\[(.*)\]\s*$/m.exec(table!)?.[1];
  expect(regex).toBe('\\bask_[A-Za-z0-9]{64}\\b');
  return { regex: new RegExp(regex!), keywords: JSON.parse(`[${keywords}]`) as string[] };
}

/** A key whose checksum is wrong: its last character replaced. */
function withWrongChecksum(key: string): string {
  return key.slice(0, 67) + (key.endsWith('A') ? 'B' : 'A');
}

describe('the gitleaks rule (.gitleaks.toml)', () => {
  it('matches a generated key alone, in an assignment and in quotes, and is keyed on "ask_"', () => {
    const { regex, keywords } = gitleaksRule();
    const key = generateSecret();
    expect(keywords).toEqual(['ask_']);
    for (const text of [key, `AIRKEY_KEY=${key}`, `"x-api-key": "${key}",`])
      expect(regex.exec(text)?.[0], text).toBe(key);
  });

  it('does not match a 67-character string, a 69-character alphanumeric run or a key glued to a word', () => {
    const { regex } = gitleaksRule();
    const key = generateSecret();
    expect(regex.test(`KEY=${key.slice(0, 67)}\n`)).toBe(false);
    expect(regex.test(`KEY=${key}A\n`)).toBe(false);
    expect(regex.test(`KEY=x${key}\n`)).toBe(false);
  });
});

describe('the secretlint rule (tools/secretlint-rule-airkey)', () => {
  it('computes the same checksum as the server on generated keys and the published vectors', () => {
    for (let i = 0; i < 200; i++) {
      const first62 = generateSecret().slice(0, 62);
      expect(airkeyChecksum(first62)).toBe(checksumOf(first62));
    }
    expect(airkeyChecksum(`ask_${'A'.repeat(58)}`)).toBe('2DuXnd');
    expect(airkeyChecksum(`ask_${'J'.repeat(58)}`)).toBe('02ezhu');
  });

  it('finds a generated key with its range, and skips a wrong checksum, a shorter and a longer string', () => {
    const key = generateSecret();
    const text = `a: ${withWrongChecksum(key)}\nb: ${key.slice(0, 67)}\nc: ${key}9\nd: ${key}\n`;
    const start = text.lastIndexOf(key);
    expect(findAirkeyKeys(text)).toEqual([{ key, range: [start, start + 68] }]);
    expect(findKeysInText(text)).toEqual([{ line: 4, key }]);
  });

  it('reports through the secretlint rule API with the hint, never the key', () => {
    const key = generateSecret();
    const reports: Array<{ message: unknown; range: readonly [number, number] }> = [];
    const handlers = creator.create({
      createTranslator: (messages) => (id, props) => ({ id, message: messages[id].en(props) }),
      report: (descriptor) => reports.push(descriptor),
    });
    handlers.file({ content: `TOKEN=${key}\nOTHER=${withWrongChecksum(generateSecret())}\n`, filePath: '.env' });
    expect(reports).toHaveLength(1);
    expect(reports[0]!.range).toEqual([6, 74]);
    const message = JSON.stringify(reports[0]!.message);
    expect(message).toContain(`ask_…${key.slice(-4)}`);
    expect(message).not.toContain(key.slice(4, 20));
    expect(creator.meta).toMatchObject({
      id: 'secretlint-rule-airkey',
      type: 'scanner',
      supportedContentTypes: ['text'],
    });
  });
});
