/**
 * A bench row carries its target as data: which figure it checks (the ratio to the reference, or
 * the value itself), the bound, and whether it is held to it. The verdict is computed here, never
 * written by a scenario: `met`, `missed`, `missing` (not measured: the reason says why), or `info`
 * (a figure shown beside the targets, not held to one).
 */
export type Target = {
  /** The figure the bound applies to. */
  of: 'ratio' | 'value';
  bound: 'at-least' | 'at-most' | 'exactly';
  limit: number;
  /** Printed after the limit: '×', ' ms', ' MB', ''. */
  unit: string;
};

export type Row = {
  what: string;
  /** Printed cells. */
  value: string;
  reference: string;
  ratio: string;
  /** The numbers the target is checked against. */
  measured: { value: number; ratio: number };
  /** No target: shown only. `informational`: the target is printed in parentheses and not held. */
  target?: Target;
  informational?: boolean;
  /** Printed in the target column of a row without a target: what the figure is for. */
  purpose?: string;
  /** Non-2xx answers (and errors) in the loads the row was measured on: any makes the row missed. */
  bad?: number;
  /** Set when the row could not be measured: why. */
  missing?: string;
};

export type Verdict = 'met' | 'missed' | 'missing' | 'info';

export const atLeast = (limit: number, of: Target['of'] = 'ratio', unit = of === 'ratio' ? '×' : ''): Target => ({
  of,
  bound: 'at-least',
  limit,
  unit,
});
export const atMost = (limit: number, of: Target['of'] = 'ratio', unit = of === 'ratio' ? '×' : ''): Target => ({
  of,
  bound: 'at-most',
  limit,
  unit,
});
export const exactly = (limit: number, unit = ''): Target => ({ of: 'value', bound: 'exactly', limit, unit });

export function verdict(row: Row): Verdict {
  if (row.missing !== undefined) return 'missing';
  if (!row.target || row.informational) return 'info';
  const figure = row.measured[row.target.of];
  const { bound, limit } = row.target;
  const within = bound === 'at-least' ? figure >= limit : bound === 'at-most' ? figure <= limit : figure === limit;
  // NaN (nothing measured) fails every comparison: missed, not met.
  return within && (row.bad ?? 0) === 0 ? 'met' : 'missed';
}

export function targetText(row: Row): string {
  if (!row.target) return row.purpose ? `(${row.purpose})` : '';
  const { bound, limit, unit } = row.target;
  const text = `${bound === 'at-least' ? '≥ ' : bound === 'at-most' ? '≤ ' : ''}${limit}${unit}`;
  return row.informational ? `(${text})` : text;
}

/** A row for a scenario that could not run, e.g. on PostgreSQL when no server answers. */
export function missingRow(what: string, reason: string): Row {
  return {
    what,
    value: '',
    reference: '',
    ratio: '',
    measured: { value: NaN, ratio: NaN },
    missing: reason,
  };
}

const VERDICT_CELL: Record<Verdict, string> = { met: 'yes', missed: '**no**', missing: '**missing**', info: '' };

/** The markdown table of RESULTS.md. */
export function table(rows: Row[]): string[] {
  const header = ['what', 'airkey', 'reference', 'ratio', 'target', 'met'];
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map(
      (r) =>
        `| ${r.what} | ${r.value} | ${r.missing ?? r.reference} | ${r.ratio} | ${targetText(r)} | ${VERDICT_CELL[verdict(r)]} |`,
    ),
  ];
}
