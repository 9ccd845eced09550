import { pino, type DestinationStream } from 'pino';

/**
 * The process's one writer of log lines to stdout, shared by every logger. Lines gather in memory
 * and go out together, in one synchronous write per turn of the event loop; what is pending when
 * the process exits is written then. Under load a turn answers many requests, so the request line
 * costs a share of one system call, not one each.
 *
 * Why not sonic-boom's asynchronous mode, as before: a write still in flight when the process
 * exits races the exit's synchronous flush, and under load lines came out of order (4 runs in 15 of
 * test/unit/http/request-line-stdout.test.ts). And three writers on one pipe could split one
 * another's lines once the pipe filled. A synchronous write blocks while a reader lags, as Node's
 * own stdout does on a pipe or a file.
 */
export function stdoutLines(): DestinationStream {
  return (shared ??= turnBatched());
}

let shared: DestinationStream | undefined;

function turnBatched(): DestinationStream {
  // sonic-boom in sync mode keeps what a full pipe refuses (EAGAIN) and retries; its types name
  // strings only, and in buffer mode its write takes a Buffer.
  const out = pino.destination({ dest: 1, sync: true, contentMode: 'buffer' }) as unknown as {
    write(data: Buffer): boolean;
  };
  let pending: Buffer[] = [];
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const chunk = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
    pending = [];
    out.write(chunk);
  };
  let scheduled = false;
  process.on('exit', flush);
  return {
    write(line: string) {
      pending.push(Buffer.from(line));
      if (scheduled) return;
      scheduled = true;
      setImmediate(flush);
    },
  };
}
