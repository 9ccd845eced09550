// A number of requests as a limit's form holds it (a rate limit, a quota): as typed, empty for none.

export type Requests = number | string;
/** The most either limit allows, as the server's schemas say. */
export const MAX_REQUESTS = 1_000_000_000;

const count = new Intl.NumberFormat('en-GB');

/** The number the API takes, or null for an empty field; what the server would refuse stays as typed. */
export function requestsOf(requests: Requests): number | null {
  if (requests === '') return null;
  return typeof requests === 'number' ? requests : Number(requests.replaceAll(',', ''));
}

/** The words for a number the server would refuse, before asking it; `none` names the empty case. */
export function requestsProblemOf(requests: Requests, none: string): string | undefined {
  const value = requestsOf(requests);
  if (value === null) return undefined;
  if (!Number.isInteger(value) || value < 1 || value > MAX_REQUESTS)
    return `A whole number from 1 to ${count.format(MAX_REQUESTS)}, or empty for ${none}.`;
  return undefined;
}
