import { describe, expect, it } from 'vitest';
import { Acknowledgements } from '../../../src/revocation/acknowledgements.ts';
import { leaseTerms, leaseValidUntil } from '../../../src/revocation/lease.ts';

describe('Acknowledgements', () => {
  it('returns as soon as every live instance has applied every change, counting acknowledgements heard before the wait began', async () => {
    const acks = new Acknowledgements();
    acks.track('c1');
    acks.track('c2');
    acks.record('c1', 'B');
    acks.record('c2', 'B');
    acks.record('c1', 'C');
    const waiting = acks.confirm(
      ['c1', 'c2'],
      [
        { id: 'B', remainingMs: 5_000 },
        { id: 'C', remainingMs: 5_000 },
      ],
      5_000,
    );
    setTimeout(() => acks.record('c2', 'C'), 20);
    const confirmation = await waiting;
    expect(confirmation).toMatchObject({ confirmed: 2, lapsed: [] });
    expect(confirmation.waitedMs).toBeLessThan(1_000);
  });

  it('stops waiting for a silent instance when its lease has run out, not before, and names it', async () => {
    const acks = new Acknowledgements();
    acks.track('c1');
    acks.record('c1', 'B');
    const confirmation = await acks.confirm(
      ['c1'],
      [
        { id: 'B', remainingMs: 1_000 },
        { id: 'C', remainingMs: 120 },
      ],
      2_000,
    );
    expect(confirmation).toMatchObject({ confirmed: 1, lapsed: ['C'] });
    expect(confirmation.waitedMs).toBeGreaterThanOrEqual(119);
    expect(confirmation.waitedMs).toBeLessThan(900);
  });

  it('never waits longer than the cap, even for a lease that claims to last longer', async () => {
    const acks = new Acknowledgements();
    acks.track('c1');
    const confirmation = await acks.confirm(['c1'], [{ id: 'C', remainingMs: 60_000 }], 100);
    expect(confirmation).toMatchObject({ confirmed: 0, lapsed: ['C'], cappedAt: 100 });
    expect(confirmation.waitedMs).toBeLessThan(1_000);
  });

  it('ignores acknowledgements of changes it does not track', async () => {
    const acks = new Acknowledgements();
    acks.record('other', 'B');
    acks.track('c1');
    const confirmation = await acks.confirm(['c1'], [{ id: 'B', remainingMs: 50 }], 1_000);
    expect(confirmation.lapsed).toEqual(['B']);
  });
});

describe('lease terms', () => {
  it('end on the instance before the database ends them, and fit a wait for a silent instance in REVOCATION_WAIT_MS', () => {
    for (const waitMs of [200, 1_000, 2_000, 60_000]) {
      const terms = leaseTerms(waitMs);
      expect(terms.lengthMs + terms.marginMs).toBeLessThan(waitMs);
      expect(terms.renewEveryMs * 3).toBeLessThan(terms.lengthMs - terms.marginMs);
      expect(leaseValidUntil(terms, 1_000)).toBe(1_000 + terms.lengthMs - terms.marginMs);
    }
    expect(leaseTerms(2_000)).toEqual({ lengthMs: 1_000, renewEveryMs: 250, marginMs: 50 });
  });
});
