import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { asRows } from '../../../src/request-log/request-columns.ts';
import { RequestLogSink, type RequestLogDrain } from '../../../src/request-log/request-log-sink.ts';
import { RequestLogWriter, type RequestBatch } from '../../../src/request-log/request-log-writer.ts';
import { recordFor } from '../../support/request-log-kit.ts';

const quiet = { failed: () => {}, succeeded: () => {} };

/** A store that keeps the size of each batch it is given. */
function recordingStore() {
  const batches: number[] = [];
  const insert = (batch: RequestBatch) => {
    batches.push(batch.rows.end - batch.rows.start);
    return Promise.resolve();
  };
  return { batches, store: { insert } };
}

/**
 * The request thread's chunks as the writer cuts them (docs/request-log.md (Writing)), with the
 * defaults the server runs: a statement per batch, so a busy tenant's full chunk is two statements.
 */
describe("the request log's chunks", () => {
  function sinkOverWriter(capacity: number) {
    const { batches, store } = recordingStore();
    const writer = new RequestLogWriter({ store, capacity, intervalMs: 60_000, report: quiet });
    const chunks: number[] = [];
    const drain: RequestLogDrain = {
      get state() {
        return { written: writer.written, dropped: writer.dropped, pending: writer.pending };
      },
      take: (chunk) => {
        chunks.push(chunk.size);
        writer.take(chunk);
      },
      start: () => {},
      flush: () => writer.flush(),
      stop: () => writer.stop(),
    };
    // The interval never fires here: only a full chunk or a flush hands over.
    const sink = new RequestLogSink({ drain, capacity, intervalMs: 60_000 });
    return { sink, writer, chunks, batches };
  }

  it('hands over a full chunk of 2,000 at once and writes it as two batches of 1,000', async () => {
    const { sink, chunks, batches } = sinkOverWriter(100_000);
    const tenantId = randomUUID();
    for (let i = 0; i < 2_000; i++) sink.record(recordFor(tenantId, 1_700_000_000_000 + i));
    expect(chunks).toEqual([2_000]);
    await sink.flush();
    expect(batches).toEqual([1_000, 1_000]);
    expect({ written: sink.written, pending: sink.pending, dropped: sink.dropped }).toEqual({
      written: 2_000,
      pending: 0,
      dropped: 0,
    });
  });

  it('cuts a part chunk into batches of one size', async () => {
    const { sink, batches } = sinkOverWriter(100_000);
    const tenantId = randomUUID();
    for (let i = 0; i < 1_500; i++) sink.record(recordFor(tenantId, 1_700_000_000_000 + i));
    await sink.flush();
    expect(batches).toEqual([750, 750]);
  });

  it('drops a chunk whole when the writer has no room, and queues no empty batch', async () => {
    const { batches, store } = recordingStore();
    const writer = new RequestLogWriter({ store, capacity: 4, intervalMs: 60_000, report: quiet });
    const tenantId = randomUUID();
    const rowsOf = (n: number) =>
      asRows(Array.from({ length: n }, (_, i) => recordFor(tenantId, 1_700_000_000_000 + i)));
    writer.take(rowsOf(4).chunk);
    writer.take(rowsOf(3).chunk);
    expect({ pending: writer.pending, dropped: writer.dropped }).toEqual({ pending: 4, dropped: 3 });
    await writer.flush();
    expect(batches).toEqual([4]);
  });
});
