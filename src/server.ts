import type { FastifyInstance } from 'fastify';
import type { Server } from 'node:http';
import { serveAdminSocket } from './admin/admin-socket.ts';
import { localOperations, type AdminOperations } from './admin/operations.ts';
import { bootstrapIfEmpty, type FirstStart } from './app/bootstrap.ts';
import { createServices, type ServiceOverrides, type ServiceRoot } from './app/services.ts';
import type { Config } from './config.ts';
import { buildApp, type AppOptions } from './http/app.ts';
import { backgroundLogger } from './app/logger.ts';
import { mcpRoutes } from './mcp/mcp-routes.ts';

export type RunningServer = {
  app: FastifyInstance;
  services: ServiceRoot;
  url: string;
  firstStart: FirstStart | undefined;
  stop(): Promise<void>;
};

const SHUTDOWN_GRACE_MS = 10_000;

/** `airkey serve`: services and their background jobs, first-start data, HTTP, admin socket, clean shutdown. */
export async function startServer(
  config: Config,
  options: AppOptions & { overrides?: ServiceOverrides } = {},
): Promise<RunningServer> {
  // Embedded mode: the CLI talks to this process through a socket in the data directory.
  let resolveOperations!: (operations: AdminOperations) => void;
  const operations = new Promise<AdminOperations>((resolve) => (resolveOperations = resolve));
  const adminSocket: Server | undefined = config.databaseUrl
    ? undefined
    : await serveAdminSocket(config.dataDir, operations);

  // The same destination as the request log, from the start: background work begins before HTTP.
  const log = backgroundLogger({ level: config.logLevel, stream: options.logStream });
  const services = await createServices(config, {
    log,
    onRevocationLapsed: (confirmation) =>
      log.warn(
        { lapsed: confirmation.lapsed, waited_ms: Math.round(confirmation.waitedMs) },
        'instances did not confirm a change; waited for their leases to run out',
      ),
    ...options.overrides,
  });
  await services.start();
  const firstStart = await bootstrapIfEmpty(services);
  resolveOperations(localOperations(services));
  const app = await buildApp(services, { ...options, plugins: [mcpRoutes, ...(options.plugins ?? [])] });
  for (const warning of services.webhooks.startupWarnings) app.log.warn(warning);
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      adminSocket?.close();
      // A connection busy when the signal came would otherwise stay open for its whole keep-alive
      // timeout after its last response: close it as soon as it is idle. Streams that never end
      // (an MCP event stream) are cut after a grace period.
      const closeIdle = setInterval(() => app.server.closeIdleConnections(), 50);
      const cutStreams = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
      await app.close(); // drains in-flight requests
      clearInterval(closeIdle);
      clearTimeout(cutStreams);
      await services.close(); // flushes last-use timestamps and usage counts, closes the feed and the database
    })());
  return { app, services, url, firstStart, stop };
}
