// secretlint rule for airkey API keys (docs/keys.md (Format)). Plain JavaScript with no dependencies, so that
// secretlint can load it without tsx. It repeats the checksum of src/keys/format/checksum.ts on purpose:
// test/unit/secret-scanning-rules.test.ts checks the two agree on generated keys.
import * as zlib from 'node:zlib';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** The gitleaks rule's regex (.gitleaks.toml); a longer alphanumeric run is not a key. */
export const AIRKEY_PATTERN = /\bask_[A-Za-z0-9]{64}\b/g;

// zlib.crc32 needs Node >= 20.15; older Nodes get the same IEEE CRC-32 from a table.
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(text) {
  if (typeof zlib.crc32 === 'function') return zlib.crc32(text);
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, 'utf8')) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** CRC-32 of `ask_` + 58 characters in base 62, left-padded with `0` to six characters. */
export function airkeyChecksum(first62) {
  let value = crc32(first62);
  let digits = '';
  do {
    digits = BASE62[value % 62] + digits;
    value = Math.floor(value / 62);
  } while (value > 0);
  return digits.padStart(6, '0');
}

/** Keys with a valid checksum in `content`: `{key, range: [start, end]}`; look-alikes are skipped. */
export function findAirkeyKeys(content) {
  const found = [];
  for (const match of content.matchAll(AIRKEY_PATTERN)) {
    const key = match[0];
    if (airkeyChecksum(key.slice(0, 62)) !== key.slice(62)) continue;
    found.push({ key, range: [match.index, match.index + key.length] });
  }
  return found;
}

export const messages = {
  AIRKEY_API_KEY: {
    // The hint only (`ask_…` + last four): secretlint output ends up in CI logs.
    en: (props) => `found an airkey API key: ${props.HINT}. Roll it, then report it (bin/airkey scan --report URL).`,
  },
};

export const creator = {
  messages,
  meta: {
    id: 'secretlint-rule-airkey',
    recommended: true,
    type: 'scanner',
    supportedContentTypes: ['text'],
  },
  create(context) {
    const t = context.createTranslator(messages);
    return {
      file(source) {
        for (const { key, range } of findAirkeyKeys(source.content)) {
          context.report({ message: t('AIRKEY_API_KEY', { HINT: `ask_…${key.slice(-4)}` }), range });
        }
      },
    };
  },
};

export default creator;
