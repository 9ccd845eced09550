import { adminSocketPath, isServerListening, remoteOperations } from '../admin/admin-socket.ts';
import { localOperations, type AdminOperations } from '../admin/operations.ts';
import { createServices } from '../app/services.ts';
import type { Config } from '../config.ts';

export type Connection = {
  operations: AdminOperations;
  via: 'postgres' | 'server' | 'data-dir';
  close(): Promise<void>;
};

/**
 * How a CLI verb reaches the data. PostgreSQL: directly (running servers hear the change on the
 * change feed). Embedded: through the running server's admin socket, so its cache sees the change
 * at once; with no server running, by opening the data directory itself.
 */
export async function connect(config: Config): Promise<Connection> {
  if (!config.databaseUrl) {
    const socket = adminSocketPath(config.dataDir);
    if (await isServerListening(socket)) {
      return { operations: remoteOperations(socket), via: 'server', close: async () => {} };
    }
  }
  const services = await createServices(config);
  return {
    operations: localOperations(services),
    via: config.databaseUrl ? 'postgres' : 'data-dir',
    close: () => services.close(),
  };
}
