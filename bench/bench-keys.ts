import type { AirkeyReady } from './airkey-server.ts';

/** Signs in as the bench's administrator and creates one key per body (its `name` optional). */
export async function createBenchKeys(airkey: AirkeyReady, bodies: Array<Record<string, unknown>>): Promise<string[]> {
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
