/**
 * What a key's IP allowlist costs (SPEC §10): whoami with a key allowed from 50 entries, the
 * bench's own address being the last of them (every range is tried before the match), against
 * the same with a key that has no list. Both sides hit the same server in interleaved rounds, so
 * only the key differs; the ranges are compiled once when the key's facts are cached, so what
 * is left per request is integer comparisons.
 */
import type { AirkeyReady } from './airkey-server.ts';
import { interleaved, SMALL_DIFFERENCE_ROUNDS, type Load } from './measure.ts';
import { atLeast } from './rows.ts';
import type { Scenario } from './scenario.ts';
import { fmt } from './scenarios.ts';
import { keyLoad } from './wrk.ts';

/** 49 ranges the bench's client is not in, then the loopback address it connects from. */
export const FIFTY_ENTRIES = [...Array.from({ length: 49 }, (_, i) => `198.${18 + (i % 2)}.${i}.0/24`), '127.0.0.1'];

/** Signs in as the bench's administrator and creates one key per body (its `name` optional). */
export async function createKeys(airkey: AirkeyReady, bodies: Array<Record<string, unknown>>): Promise<string[]> {
  const signIn = await fetch(`${airkey.url}/backoffice/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: airkey.email, password: airkey.password }),
  });
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
  const { csrf_token } = (await signIn.json()) as { csrf_token: string };
  const secrets: string[] = [];
  for (const [i, body] of bodies.entries()) {
    const response = await fetch(`${airkey.url}/backoffice/api/api-keys`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrf_token, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `bench key ${i}`, ...body }),
    });
    if (response.status !== 201) throw new Error(`creating a bench key: ${response.status} ${await response.text()}`);
    secrets.push(((await response.json()) as { secret: string }).secret);
  }
  return secrets;
}

export const allowlists: Scenario = {
  name: 'allowlists',
  title: '10. IP allowlists',
  engines: ['pglite', 'postgres'],
  async run({ engine, subject, settings: s }) {
    const airkey = await subject();
    const [listed, open] = await createKeys(airkey, [{ allowed_ips: FIFTY_ENTRIES }, { allowed_ips: null }]);
    const whoami = (key: string): Load => ({
      url: `${airkey.url}/api/v1/whoami`,
      headers: { 'x-api-key': key },
      connections: s.connections,
      seconds: s.seconds,
    });
    // A difference of a few percent at most: more rounds, so the median holds still.
    const rounds = Math.max(s.rounds, SMALL_DIFFERENCE_ROUNDS);
    s.log(`allowlists on ${engine}: whoami with a 50-entry allowlist vs the same key without one`);
    const pair = await interleaved(whoami(listed!), whoami(open!), rounds, s.log, keyLoad);
    return [
      {
        what: `10. IP allowlists (${engine}): whoami, 50-entry allowlist (allowed) vs none req/s`,
        value: fmt(pair.rps),
        reference: fmt(pair.refRps),
        ratio: fmt(pair.ratio, 2),
        measured: { value: pair.rps, ratio: pair.ratio },
        target: atLeast(0.97),
        bad: pair.bad,
      },
    ];
  },
};
