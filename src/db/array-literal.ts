/**
 * A PostgreSQL array literal (`{a,b,c}`) for values that need no quoting: uuids, ISO instants and
 * numbers hold no comma, brace, quote or space. A batch sent as one array parameter per column costs
 * the same to build and to plan whatever its size, unlike a VALUES list of thousands of rows.
 */
export function arrayLiteral(values: Iterable<string | number>): string {
  return `{${[...values].join(',')}}`;
}
