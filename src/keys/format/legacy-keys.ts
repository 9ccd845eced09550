import { isDatabaseUnreachable } from '../../db/unavailable.ts';

/** Asks storage whether any key minted before checksums (`has_checksum = false`) remains. */
export type LegacyKeySource = { anyLegacyKey(): Promise<boolean> };

/**
 * Whether a key without a checksum may still exist. While one may, a presented key whose checksum
 * is wrong could be such a key and must be looked up; once none remains, a wrong checksum is a
 * typo or a forgery and the key check refuses it offline (docs/keys.md), also while the database is down.
 *
 * Legacy keys are never minted again, so "none" is final and no instance ever asks again. Until
 * an answer arrives (the database was down at start, say) the answer is "may exist": the safe
 * side, since it only costs a lookup. Another instance's deletion reaches this one through the
 * change feed (`refresh` on every change) or, at the latest, through the periodic sweep.
 */
export class LegacyKeys {
  private state: 'unknown' | 'present' | 'none' = 'unknown';
  // Refreshes run one after another, so an answer read before a deletion never lands after one read since.
  private tail: Promise<void> = Promise.resolve();

  private readonly source: LegacyKeySource;
  constructor(source: LegacyKeySource) {
    this.source = source;
  }

  /** True once storage has said no legacy key remains. Synchronous: read on the hot path. */
  get noneRemain(): boolean {
    return this.state === 'none';
  }

  /**
   * Asks storage again, unless it already said none. An unreachable database leaves the state as
   * it was (the next refresh asks again); any other failure is a fault, and rejects to the caller.
   */
  refresh(): Promise<void> {
    const asked = this.tail.then(async () => {
      if (this.state === 'none') return;
      try {
        this.state = (await this.source.anyLegacyKey()) ? 'present' : 'none';
      } catch (error) {
        if (!isDatabaseUnreachable(error)) throw error;
      }
    });
    // The next refresh waits for this one, whatever it came to.
    this.tail = asked.catch(() => {});
    return asked;
  }
}
