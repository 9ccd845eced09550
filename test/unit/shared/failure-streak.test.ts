import { describe, expect, it } from 'vitest';
import { FailureStreak, type StreakSink } from '../../../src/shared/failure-streak.ts';

function recordingSink() {
  const events: string[] = [];
  const sink: StreakSink = {
    warn: (task, error) => events.push(`warn ${task} ${(error as Error).message}`),
    recovered: (task, failures) => events.push(`recovered ${task} ${failures}`),
    count: (task) => events.push(`count ${task}`),
  };
  return { events, sink };
}

/** A background flush that fails is never silent: counted every time, logged once per streak. */
describe('FailureStreak', () => {
  it('warns at the first failure of a streak only and counts every failure', () => {
    const { events, sink } = recordingSink();
    const streak = new FailureStreak('usage_counts', sink);
    for (let i = 1; i <= 3; i++) streak.failed(new Error(`down ${i}`));
    expect(events).toEqual([
      'count usage_counts',
      'warn usage_counts down 1',
      'count usage_counts',
      'count usage_counts',
    ]);
  });

  it('reports the recovery with the length of the streak, then warns again at the next streak', () => {
    const { events, sink } = recordingSink();
    const streak = new FailureStreak('key_last_used', sink);
    streak.failed(new Error('a'));
    streak.failed(new Error('b'));
    streak.succeeded();
    streak.failed(new Error('c'));
    expect(events).toEqual([
      'count key_last_used',
      'warn key_last_used a',
      'count key_last_used',
      'recovered key_last_used 2',
      'count key_last_used',
      'warn key_last_used c',
    ]);
  });

  it('says nothing while the task keeps succeeding', () => {
    const { events, sink } = recordingSink();
    const streak = new FailureStreak('usage_counts', sink);
    streak.succeeded();
    streak.succeeded();
    expect(events).toEqual([]);
  });
});
