import { KeyRepository } from '../../../src/keys/key-repository.ts';
import { describe, expect, it, vi } from 'vitest';
import { useHarness } from '../../support/use.ts';
import { START } from '../../support/manual-clock.ts';
import { apiFrom, expectProblem, unknownKey } from '../../support/problems.ts';
import { checksumOf } from '../../../src/keys/format/checksum.ts';

/** docs/api.md (errors), through the real HTTP app. */
describe('problem responses (docs/api.md (errors))', () => {
  const h = useHarness({ now: START });

  describe('429 too_many_requests', () => {
    it('blocks a client after repeated bad keys, with Retry-After, while its valid cached key keeps working', async () => {
      const client = '10.9.9.9';
      const admin = await h.signedIn();
      const { secret } = await h.createKey(admin);
      expect((await apiFrom(h, client, secret, '/api/v1/whoami')).statusCode).toBe(200);
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++)
        statuses.push(
          (await apiFrom(h, client, unknownKey(String.fromCharCode(65 + (i % 26))), '/api/v1/whoami')).statusCode,
        );
      expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
      expect(statuses.at(-1)).toBe(429);
      const blocked = await apiFrom(h, client, `ask_${'q'.repeat(64)}`, '/api/v1/whoami');
      expectProblem(blocked, 429, 'too_many_requests');
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect((await apiFrom(h, client, secret, '/api/v1/whoami')).statusCode).toBe(200);
      expect((await apiFrom(h, client, secret, '/api/v1/flights', 'query')).statusCode).toBe(200);
      // Another client is not punished for this one.
      expectProblem(await apiFrom(h, '10.9.9.10', unknownKey(), '/api/v1/whoami'), 401, 'api_key_invalid');
    });

    it('counts Retry-After down as the block runs, in the header and in the detail alike', async () => {
      const client = '10.9.9.12';
      for (let i = 0; i < 40; i++)
        await apiFrom(h, client, unknownKey(String.fromCharCode(65 + (i % 26))), '/api/v1/whoami');
      const retryAfterOf = async () => {
        const refused = await apiFrom(h, client, unknownKey('Z'), '/api/v1/whoami');
        const seconds = Number(refused.headers['retry-after']);
        expect(expectProblem(refused, 429, 'too_many_requests').detail).toBe(
          `Too many failed attempts from this client. Retry in ${seconds} s.`,
        );
        return seconds;
      };
      const first = await retryAfterOf();
      // The block this instance remembers runs on the services' clock.
      h.clock.advance(20_000);
      const later = await retryAfterOf();
      expect(first - later).toBeGreaterThanOrEqual(19);
      expect(first - later).toBeLessThanOrEqual(21);
    });

    it('lets a blocked client use a valid key this instance has never seen, yet keeps refusing guesses', async () => {
      const client = '10.9.9.11';
      const admin = await h.signedIn();
      const { secret: fresh } = await h.createKey(admin, { name: 'never used yet' });
      h.services.keys.cache.invalidate({ type: 'all' }); // as on an instance that has not seen it
      // Well-formed guesses with a valid checksum: only those can cost a lookup at all.
      const guess = (i: number) => {
        const body = `ask_${String(i).padStart(58, 'g')}`;
        return body + checksumOf(body);
      };
      for (let i = 0; i < 25; i++) await apiFrom(h, client, guess(i), '/api/v1/whoami');
      expectProblem(await apiFrom(h, client, guess(100), '/api/v1/whoami'), 429, 'too_many_requests');
      expect((await apiFrom(h, client, fresh, '/api/v1/whoami')).statusCode).toBe(200);
      // Guesses stay refused; past the lookup budget (60 a minute) without reading the database.
      const lookups = vi.spyOn(KeyRepository.prototype, 'findFactsByDigest');
      const statuses: number[] = [];
      for (let i = 200; i < 280; i++) statuses.push((await apiFrom(h, client, guess(i), '/api/v1/whoami')).statusCode);
      expect(new Set(statuses)).toEqual(new Set([429]));
      expect(lookups.mock.calls.length).toBeGreaterThan(0);
      expect(lookups.mock.calls.length).toBeLessThan(60);
      lookups.mockRestore();
    });
  });
});
