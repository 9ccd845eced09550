/**
 * A PostgreSQL array literal (`{a,b,c}`) for values that need no quoting: uuids, ISO instants and
 * numbers hold no comma, brace, quote or space. A batch sent as one array parameter per column costs
 * the same to build and to plan whatever its size, unlike a VALUES list of thousands of rows.
 */
export function arrayLiteral(values: Iterable<string | number>): string {
  return `{${(Array.isArray(values) ? values : [...values]).join(',')}}`;
}

const QUOTE_OR_BACKSLASH = /["\\]/;
const QUOTES_AND_BACKSLASHES = /["\\]/g;

/**
 * A PostgreSQL array literal of text, for values a client chose (a path, a user agent, a key's
 * name): every element quoted, so commas, braces, spaces, the empty string and the word NULL stay
 * text, with its quotes and backslashes escaped; `null` is NULL. The drivers' own array encoding
 * escapes every element with two replacements; this scans each once and escapes the rare one
 * that needs it.
 */
export function textArrayLiteral(values: ReadonlyArray<string | null>): string {
  let literal = '{';
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    if (i > 0) literal += ',';
    if (value === null) literal += 'NULL';
    else if (QUOTE_OR_BACKSLASH.test(value)) literal += `"${value.replace(QUOTES_AND_BACKSLASHES, '\\$&')}"`;
    else literal += `"${value}"`;
  }
  return `${literal}}`;
}
