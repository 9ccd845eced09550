import { createServer, connect, type Server, type Socket } from 'node:net';

type Link = {
  listener: boolean;
  frozen: boolean;
  buffering: boolean;
  held: Array<[Socket, Buffer]>;
  sockets: Socket[];
};

/**
 * A TCP relay in front of PostgreSQL that can go silent, as in a network partition: no FIN, no
 * RST, just nothing. `freezeListeners` silences the listener connections only (recognised by the
 * application_name in their startup packet) and drops what they send; `partition` silences every
 * connection, new ones too, and holds the bytes as TCP would, so `heal` delivers them late.
 */
export async function freezingProxy(
  target: string,
): Promise<{ url: string; freezeListeners(): void; partition(): void; heal(): void; close(): Promise<void> }> {
  const upstreamUrl = new URL(target);
  const links: Link[] = [];
  let partitioned = false;
  const pass = (link: Link, to: Socket, chunk: Buffer) => {
    if (link.buffering) link.held.push([to, chunk]);
    else if (!link.frozen) to.write(chunk);
  };
  const server: Server = createServer((client) => {
    const upstream = connect(Number(upstreamUrl.port || 5432), upstreamUrl.hostname);
    const link: Link = {
      listener: false,
      frozen: false,
      buffering: partitioned,
      held: [],
      sockets: [client, upstream],
    };
    links.push(link);
    let first = true;
    client.on('data', (chunk: Buffer) => {
      if (first) link.listener = chunk.includes('airkey-listener-');
      first = false;
      pass(link, upstream, chunk);
    });
    upstream.on('data', (chunk: Buffer) => pass(link, client, chunk));
    const silent = () => link.frozen || link.buffering;
    const close = () => link.sockets.forEach((socket) => socket.destroy());
    client.on('error', close).on('close', () => !silent() && close());
    upstream.on('error', close).on('close', () => !silent() && close());
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
    partition() {
      partitioned = true;
      for (const link of links) link.buffering = true;
    },
    heal() {
      partitioned = false;
      for (const link of links) {
        link.buffering = false;
        for (const [to, chunk] of link.held.splice(0)) if (!to.destroyed) to.write(chunk);
      }
    },
    async close() {
      for (const link of links) link.sockets.forEach((socket) => socket.destroy());
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
