import net from 'node:net';
import type { FastifyInstance } from 'fastify';

export type RawResponse = { status: number; headers: Record<string, string>; body: string; raw: string };

/** Starts `app` listening on a free port of 127.0.0.1 and returns the port. */
export async function listen(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as net.AddressInfo).port;
}

/**
 * Writes `bytes` as they are on a fresh connection and reads the one response: what `inject`
 * cannot send (raw non-ASCII bytes, NULs, request lines Node's parser refuses).
 */
export function rawRequest(port: number, bytes: Buffer | string, timeoutMs = 5_000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    const timer = setTimeout(() => finish(), timeoutMs);
    let done = false;
    function finish(): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(chunks).toString('latin1');
      const headEnd = raw.indexOf('\r\n\r\n');
      if (headEnd < 0) return reject(new Error(`no HTTP response (${raw.length} bytes)`));
      const [statusLine = '', ...lines] = raw.slice(0, headEnd).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let body = raw.slice(headEnd + 4);
      const length = Number(headers['content-length']);
      if (Number.isFinite(length)) body = body.slice(0, length);
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: Buffer.from(body, 'latin1').toString('utf8'),
        raw,
      });
    }
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // One response is all we wait for: stop once its declared body has arrived.
      const text = Buffer.concat(chunks).toString('latin1');
      const headEnd = text.indexOf('\r\n\r\n');
      const match = /\r\ncontent-length:\s*(\d+)/i.exec(text.slice(0, headEnd));
      if (headEnd >= 0 && match && Buffer.byteLength(text.slice(headEnd + 4), 'latin1') >= Number(match[1])) finish();
    });
    socket.on('close', finish);
    socket.on('error', () => finish());
  });
}

/** A GET request line for `target` (already encoded as the test wants it), closing the connection after. */
export function getRequest(target: Buffer | string, headers: Record<string, string> = {}): Buffer {
  const head = Object.entries({ Host: '127.0.0.1', Connection: 'close', ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return Buffer.concat([
    Buffer.from('GET '),
    Buffer.isBuffer(target) ? target : Buffer.from(target, 'latin1'),
    Buffer.from(` HTTP/1.1\r\n${head}\r\n`, 'latin1'),
  ]);
}
