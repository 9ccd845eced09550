import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { createHarness, type Harness, type HarnessOptions } from './harness.ts';

/**
 * Registers beforeAll/afterAll for a fixture that `start` builds and `stop` tears down, and returns a
 * stand-in for it, usable inside tests and hooks (not at collection time, before it exists).
 * A stand-in rather than a `let` assigned in a hook: the file reads `const h = useHarness()` and every
 * test sees the one instance without repeating the hook pair.
 */
export function useFixture<T extends object>(start: () => Promise<T>, stop: (fixture: T) => Promise<void>): T {
  let fixture: T | undefined;
  beforeAll(async () => {
    fixture = await start();
  });
  afterAll(async () => {
    // A failed start leaves nothing to stop; the start's own error is the one that reports.
    if (fixture) await stop(fixture);
  });
  const current = (): T => {
    if (!fixture) throw new Error('the fixture is used before its beforeAll ran (or after its afterAll)');
    return fixture;
  };
  return new Proxy({} as T, {
    get: (_, property) => Reflect.get(current(), property) as unknown,
    has: (_, property) => Reflect.has(current(), property),
  });
}

export type UseHarnessOptions = HarnessOptions & {
  /** Set the clock back to the harness's start after each test, so tests that move it stay independent. */
  rewindClock?: boolean;
};

/** One harness (test/support/harness.ts) for the enclosing `describe` (or file): created once, closed after. */
export function useHarness({ rewindClock = false, ...options }: UseHarnessOptions = {}): Harness {
  let start: Date | undefined;
  const h = useFixture(
    async () => {
      const harness = await createHarness(options);
      start = harness.clock.now();
      return harness;
    },
    (harness) => harness.close(),
  );
  if (rewindClock) afterEach(() => h.clock.set(start!));
  return h;
}

/** The JSON body of an `inject` response as `T` (`unknown` unless the test says what it expects). */
export function json<T = unknown>(response: LightMyRequestResponse): T {
  return response.json<T>();
}

/**
 * Asymmetric matchers typed as the values they stand for (Vitest types them `any`), so an expected
 * object that holds one stays typed.
 */
export const anyString = (): string => expect.any(String) as string;
export const anyNumber = (): number => expect.any(Number) as number;
export const containing = <T extends object>(partial: T): T => expect.objectContaining<object>(partial) as T;
export const matching = (pattern: RegExp): string => expect.stringMatching(pattern) as string;

/** The JSON body of a `fetch` response as `T` (`unknown` unless the test says what it expects). */
export async function jsonOf<T = unknown>(response: Response): Promise<T> {
  return (await response.json()) as T;
}
