import { createServer, request, type Server } from 'node:http';

/**
 * A loopback HTTP relay that adds `headers` to every request and sends each one to the next of
 * `targets` in turn: what a host that cannot set a header (the conformance runner) needs to reach
 * /mcp with a key, and a round-robin balancer in front of several instances. The Host header goes
 * through as the client sent it, so the Origin rule sees the relay's own origin.
 */
export async function keyProxy(
  targets: string[],
  headers: Record<string, string>,
): Promise<{ url: string; sentTo: Map<string, number>; close(): Promise<void> }> {
  let next = 0;
  const sentTo = new Map<string, number>();
  const server: Server = createServer((incoming, outgoing) => {
    const target = new URL(targets[next++ % targets.length]!);
    sentTo.set(target.origin, (sentTo.get(target.origin) ?? 0) + 1);
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, ...headers },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    sentTo,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
