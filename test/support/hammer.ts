/** One request's fate: which instance, its status (0: no answer, the instance died), when sent and answered. */
export type Outcome = { on: string; status: number; sentMs: number; doneMs: number };

/** Requests with `secret` to one server, `concurrency` at a time, until `count` are sent, `untilMs`, or `stop()` says so. */
export async function hammer(
  on: { name: string; url: string },
  secret: string,
  {
    count = Infinity,
    untilMs = Infinity,
    concurrency,
    stop = () => false,
  }: { count?: number; untilMs?: number; concurrency: number; stop?: () => boolean },
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let sent = 0;
  async function worker(): Promise<void> {
    while (sent < count && Date.now() < untilMs && !stop()) {
      sent++;
      const sentMs = Date.now();
      const status = await fetch(`${on.url}/api/v1/whoami`, { headers: { 'x-api-key': secret } })
        .then(async (response) => (await response.arrayBuffer(), response.status))
        .catch(() => 0);
      outcomes.push({ on: on.name, status, sentMs, doneMs: Date.now() });
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return outcomes;
}

/** How many outcomes had each status. */
export function statusCounts(outcomes: readonly Outcome[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const o of outcomes) counts[o.status] = (counts[o.status] ?? 0) + 1;
  return counts;
}
