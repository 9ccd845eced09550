import type { Clock } from '../../src/shared/clock.ts';

/** The instant every test starts from unless it says otherwise: one value for the whole suite. */
export const START = '2026-11-22T12:00:00Z';

/** A clock tests move by hand; the services take it through their `Clock` port. */
export class ManualClock implements Clock {
  private current: Date;
  constructor(start: Date | string = new Date()) {
    this.current = new Date(start);
  }
  now(): Date {
    return new Date(this.current.getTime());
  }
  nowMs(): number {
    return this.current.getTime();
  }
  set(to: Date | string): void {
    this.current = new Date(to);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
