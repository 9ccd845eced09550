import { recordsOf, type RequestChunk } from './request-columns.ts';
import type { DrainState, RequestLogDrain } from './request-log-sink.ts';
import type { RequestLogWriter } from './request-log-writer.ts';

/**
 * The drain of the embedded engine, whose one connection lives on the request thread: the chunk
 * becomes records for the writer there, which writes them at once in short batches and retries on
 * its timer. The sink bounds what it holds.
 */
export class InThreadDrain implements RequestLogDrain {
  private readonly writer: RequestLogWriter;
  constructor(writer: RequestLogWriter) {
    this.writer = writer;
  }

  get state(): DrainState {
    return this.writer;
  }

  take(chunk: RequestChunk): void {
    for (const record of recordsOf(chunk)) this.writer.record(record);
    void this.writer.flush();
  }

  start(): void {
    this.writer.start();
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }

  stop(): Promise<void> {
    return this.writer.stop();
  }
}
