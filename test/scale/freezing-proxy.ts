import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of PostgreSQL that can go silent for the listener connections only
 * (recognised by the application_name in their startup packet): no FIN, no RST, just nothing,
 * as in a network partition. Everything else keeps flowing.
 */
export async function freezingProxy(target: string): Promise<{ url: string; freezeListeners(): void; close(): Promise<void> }> {
  const upstreamUrl = new URL(target);
  const links: Array<{ listener: boolean; frozen: boolean; sockets: Socket[] }> = [];
  const server: Server = createServer((client) => {
    const upstream = connect(Number(upstreamUrl.port || 5432), upstreamUrl.hostname);
    const link = { listener: false, frozen: false, sockets: [client, upstream] };
    links.push(link);
    let first = true;
    client.on('data', (chunk: Buffer) => {
      if (first) link.listener = chunk.includes('airkey-listener-');
      first = false;
      if (!link.frozen) upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!link.frozen) client.write(chunk);
    });
    const close = () => link.sockets.forEach((socket) => socket.destroy());
    client.on('error', close).on('close', () => !link.frozen && close());
    upstream.on('error', close).on('close', () => !link.frozen && close());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(typeof address === 'object' && address ? address.port : 0);
  return {
    url: url.toString(),
    freezeListeners() {
      for (const link of links) if (link.listener) link.frozen = true;
    },
    async close() {
      for (const link of links) link.sockets.forEach((socket) => socket.destroy());
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
