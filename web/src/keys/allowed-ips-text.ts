import { ipEntryProblem, MAX_ALLOWED_IPS } from '@contracts';

/** One line of the allowlist box: what was typed there, and its line number (from 1). */
export type IpLine = { line: number; text: string };

/** The non-empty lines, in order: the entries the server gets, `allowed_ips.N` being the N-th of them. */
export function ipLinesOf(text: string): IpLine[] {
  return text
    .split('\n')
    .map((raw, index) => ({ line: index + 1, text: raw.trim() }))
    .filter((entry) => entry.text !== '');
}

/** The box as the API's `allowed_ips`: null (any address) when empty. */
export function allowedIpsOf(text: string): string[] | null {
  const lines = ipLinesOf(text);
  return lines.length === 0 ? null : lines.map((entry) => entry.text);
}

export function allowedIpsText(list: readonly string[] | null): string {
  return list === null ? '' : list.join('\n');
}

/** Each bad line with the server's own words, judged as typed; and the count, past 50. */
export function ipLineProblems(text: string): string[] {
  const lines = ipLinesOf(text);
  const problems = lines.flatMap(({ line, text: entry }) => {
    const problem = ipEntryProblem(entry);
    return problem ? [`Line ${line}: ${problem}`] : [];
  });
  if (lines.length > MAX_ALLOWED_IPS)
    problems.push(`At most ${MAX_ALLOWED_IPS} addresses or ranges (${lines.length} given).`);
  return problems;
}

/** A server error about entry N (`allowed_ips.N`), told by the line it came from. */
export function serverLineProblem(text: string, path: string, message: string): string {
  const index = /^allowed_ips\.(\d+)$/.exec(path)?.[1];
  const line = index === undefined ? undefined : ipLinesOf(text)[Number(index)]?.line;
  return line === undefined ? message : `Line ${line}: ${message}`;
}

/** "Any address" or "2 addresses or ranges". */
export function allowedIpsSummary(list: readonly string[] | null): string {
  if (list === null) return 'Any address';
  return `${list.length} ${list.length === 1 ? 'address or range' : 'addresses or ranges'}`;
}

/** The box with `address` added as a line of its own, unless it is there already. */
export function withAddress(text: string, address: string): string {
  if (ipLinesOf(text).some((entry) => entry.text === address)) return text;
  const trimmed = text.replace(/\s+$/, '');
  return trimmed === '' ? address : `${trimmed}\n${address}`;
}
