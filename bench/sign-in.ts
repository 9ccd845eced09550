/**
 * Row 12: a back-office sign-in with a second factor, in server time (`Server-Timing`): the
 * password step (argon2id) plus the TOTP step, target p95 under 300 ms. Each sample is a user of
 * its own, enrolled through the Security endpoints: a TOTP code works once, and the next step's
 * code is accepted right after the confirming one, so no sample waits for the clock.
 */
import { Secret, TOTP } from 'otpauth';
import type { AirkeyReady } from './airkey-server.ts';
import { percentile } from './measure.ts';
import { atMost, type Row } from './rows.ts';
import type { Scenario, Settings } from './scenario.ts';
import { fmt } from './scenarios.ts';

const SAMPLES = 40;
const PASSWORD = 'a bench passphrase for sign-in';

const code = (secret: string, atMs: number) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: atMs });
const serverMs = (response: Response) =>
  Number(/app;dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '')?.[1] ?? NaN);

type Client = { cookie: string; csrf: string };

async function post(url: string, body: unknown, client?: Client): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(client ? { cookie: client.cookie, 'x-csrf-token': client.csrf } : {}),
    },
    body: JSON.stringify(body ?? {}),
  });
}

async function signedIn(url: string, email: string, password: string): Promise<Client> {
  const response = await post(`${url}/backoffice/api/session`, { email, password });
  if (response.status !== 200) throw new Error(`bench sign-in: ${response.status} ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .find((c) => c.startsWith('airkey_session='))!
    .split(';')[0]!;
  return { cookie, csrf: ((await response.json()) as { csrf_token: string }).csrf_token };
}

/** A user with an authenticator app, and the step its confirming code used. */
async function enrolledUser(airkey: AirkeyReady, admin: Client, index: number) {
  const email = `signin-${index}-${Date.now()}@bench.test`;
  const created = await post(
    `${airkey.url}/backoffice/api/users`,
    { email, name: `Sign-in ${index}`, password: PASSWORD, roles: ['operations'] },
    admin,
  );
  if (created.status !== 201) throw new Error(`bench user: ${created.status} ${await created.text()}`);
  const own = await signedIn(airkey.url, email, PASSWORD);
  const begun = await post(`${airkey.url}/backoffice/api/me/totp`, undefined, own);
  const { secret } = (await begun.json()) as { secret: string };
  const confirmedAt = Date.now();
  await post(`${airkey.url}/backoffice/api/me/totp/confirm`, { code: code(secret, confirmedAt) }, own);
  return { email, secret, confirmedAt };
}

async function timeSignIns(airkey: AirkeyReady, s: Settings): Promise<{ totals: number[]; bad: number }> {
  const admin = await signedIn(airkey.url, airkey.email, airkey.password);
  const totals: number[] = [];
  let bad = 0;
  for (let i = 0; i < SAMPLES; i++) {
    const user = await enrolledUser(airkey, admin, i);
    const password = await post(`${airkey.url}/backoffice/api/session`, { email: user.email, password: PASSWORD });
    const pending = password.headers
      .getSetCookie()
      .find((c) => c.startsWith('airkey_pending='))
      ?.split(';')[0];
    await password.arrayBuffer();
    const step = await fetch(`${airkey.url}/backoffice/api/session/second-factor`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: pending ?? '' },
      body: JSON.stringify({ method: 'totp', code: code(user.secret, user.confirmedAt + 30_000) }),
    });
    await step.arrayBuffer();
    if (password.status !== 200 || step.status !== 200) bad++;
    totals.push(serverMs(password) + serverMs(step));
  }
  s.log(
    `    sign-in with TOTP: server p50 ${fmt(percentile(totals, 50), 1)}, p95 ${fmt(percentile(totals, 95), 1)} ms`,
  );
  return { totals, bad };
}

export const signInScenario: Scenario = {
  name: 'signin',
  title: '12. back-office sign-in with a second factor',
  engines: ['pglite', 'postgres'],
  async run({ engine, subject, settings }): Promise<Row[]> {
    settings.log(`back-office sign-in with password and TOTP on ${engine}, ${SAMPLES} users`);
    const { totals, bad } = await timeSignIns(await subject(), settings);
    const p95 = percentile(totals, 95);
    return [
      {
        what: `12. sign-in with password + TOTP (${engine}) p95 ms (server)`,
        value: fmt(p95, 1),
        reference: '300 ms',
        ratio: fmt(p95 / 300, 2),
        measured: { value: p95, ratio: p95 / 300 },
        target: atMost(300, 'value', ' ms'),
        bad,
      },
    ];
  },
};
