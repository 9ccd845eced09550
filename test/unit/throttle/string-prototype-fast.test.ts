import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { UNWATCHED } from '../../support/unwatched.ts';

// V8's own answer to "is this object in fast mode?", compiled after the flag allows it.
v8.setFlagsFromString('--allow-natives-syntax');
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- %-natives syntax only parses in code compiled at run time
const hasFastProperties = new Function('object', 'return %HasFastProperties(object)') as (object: object) => boolean;

/**
 * A String subclass defined by a dependency (ioredis has one) turns String.prototype into a slow,
 * dictionary-mode object until a property is stored on an instance of it, and every `charCodeAt`
 * in the process then runs 3–5× slower: the router, the serializers and the key check
 * (src/throttle/redis-client.ts).
 */
describe('String.prototype stays in fast mode', () => {
  it('after the whole server is loaded', async () => {
    expect(hasFastProperties(String.prototype)).toBe(true);
    await import('../../../src/app/services.ts');
    await import('../../../src/http/app.ts');
    await import('../../../src/cli/main.ts');
    expect(hasFastProperties(String.prototype)).toBe(true);
  });

  it('after a Redis client is made for the throttles (whether or not Redis answers)', async () => {
    const { connectRedis } = await import('../../../src/throttle/redis-client.ts');
    const redis = await connectRedis('redis://127.0.0.1:6379', UNWATCHED);
    redis.disconnect();
    expect(hasFastProperties(String.prototype)).toBe(true);
  });

  it('is what the checks above can see: a String subclass makes it slow, a property stored on an instance fast again', () => {
    // A fresh context has a String.prototype that nothing has subclassed yet.
    const states = vm.runInNewContext(`
      const states = [%HasFastProperties(String.prototype)];
      class Marked extends String {}
      states.push(%HasFastProperties(String.prototype));
      new Marked('x').format = 'txt'; // what VerbatimString's constructor does
      states.push(%HasFastProperties(String.prototype));
      states;
    `) as boolean[];
    expect([...states]).toEqual([true, false, true]);
  });
});
