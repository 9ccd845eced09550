import { connect, createServer, type Socket } from 'node:net';

/**
 * A TCP relay that can be switched off and on: off, every open connection is reset and new ones
 * are refused (the port is closed), as when the server behind it dies; on, it listens and relays again. Lets a test take
 * away a shared server (Redis) that other test files still use.
 */
export async function switchableProxy(
  target: string,
): Promise<{ url: string; off(): Promise<void>; on(): Promise<void>; close(): Promise<void> }> {
  const upstreamUrl = new URL(target);
  let up = true;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(upstreamUrl.port), upstreamUrl.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    const close = () => (client.destroy(), upstream.destroy());
    client.on('error', close).on('close', close).pipe(upstream);
    upstream.on('error', close).on('close', close).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    async off() {
      up = false;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    async on() {
      up = true;
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      if (up) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
