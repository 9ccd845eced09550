/**
 * One frozen object for equal values: built on first request, then handed to everyone who asks
 * with the same key. Thousands of cached keys belong to a few tenants, creators and allowlists;
 * sharing those immutable parts leaves a cached key paying for its own fields only.
 * Bounded by clearing: past `maxValues` distinct keys it starts again, after which values made
 * earlier are no longer shared, never wrong (a value is found only by its full content).
 */
export class Interner<T extends object> {
  private readonly values = new Map<string, T>();
  private readonly maxValues: number;

  constructor(maxValues: number) {
    this.maxValues = maxValues;
  }

  /**
   * `key` must name every field of the value `make` builds: equal keys get the same object. The
   * value is frozen (typed as built, so shared arrays still fit types that say `T[]`).
   */
  get(key: string, make: () => T): T {
    let value = this.values.get(key);
    if (value === undefined) {
      if (this.values.size >= this.maxValues) this.values.clear();
      value = make();
      Object.freeze(value);
      this.values.set(key, value);
    }
    return value;
  }

  get size(): number {
    return this.values.size;
  }
}
