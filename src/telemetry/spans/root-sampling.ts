import { randomFillSync } from 'node:crypto';

const ID_BYTES = 16;
const IDS_PER_DRAW = 256;
const INVALID_TRACE_ID = '0'.repeat(32);

/**
 * Where the SDK's TraceIdRatioBasedSampler draws the line for `ratio`: an id is kept when the
 * exclusive-or of its four 32-bit words is below it (every id at 1, none at 0).
 */
export function ratioBound(ratio: number): number {
  const clamped = Number.isNaN(ratio) ? 0 : Math.min(Math.max(ratio, 0), 1);
  return clamped === 1 ? 0x1_0000_0000 : Math.floor(clamped * 0xffff_ffff);
}

/** The SDK ratio sampler's fold of a trace id, read from the id's 16 bytes instead of its hex. */
export function foldIdBytes(bytes: Buffer, offset: number): number {
  return (
    (bytes.readUInt32BE(offset) ^
      bytes.readUInt32BE(offset + 4) ^
      bytes.readUInt32BE(offset + 8) ^
      bytes.readUInt32BE(offset + 12)) >>>
    0
  );
}

/**
 * The trace ids of requests that come without a parent, and the root sampler's decision on each,
 * made on the random bytes before any hex: a dropped request costs a few reads of a buffer, a kept
 * one gets the id those bytes spell. The decision is the SDK's own for that id (the same fold and
 * bound), so its sampler, asked again when the span starts, agrees. Bytes are drawn 256 ids at a
 * time: one call into the random source for the lot.
 */
export class RootSampling {
  private readonly bytes = Buffer.alloc(ID_BYTES * IDS_PER_DRAW);
  private next = IDS_PER_DRAW;
  private readonly bound: number;

  constructor(ratio: number) {
    this.bound = ratioBound(ratio);
  }

  /** The trace id of a kept root request, or undefined when the sampler would drop it. */
  keep(): string | undefined {
    const offset = this.draw();
    if (foldIdBytes(this.bytes, offset) >= this.bound) return undefined;
    const id = this.bytes.toString('hex', offset, offset + ID_BYTES);
    // All zeroes is no trace id (W3C); the SDK's sampler drops it too, so draw again.
    return id === INVALID_TRACE_ID ? this.keep() : id;
  }

  /** A trace id whatever the ratio (for spans the SDK starts without a request). */
  anyId(): string {
    const offset = this.draw();
    const id = this.bytes.toString('hex', offset, offset + ID_BYTES);
    return id === INVALID_TRACE_ID ? this.anyId() : id;
  }

  private draw(): number {
    if (this.next === IDS_PER_DRAW) {
      randomFillSync(this.bytes);
      this.next = 0;
    }
    return this.next++ * ID_BYTES;
  }
}
