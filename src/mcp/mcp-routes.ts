import type { FastifyInstance } from 'fastify';
import type { Services } from '../app/services.ts';

/** Placeholder until the MCP issue lands: /mcp answers like any unknown route. */
export async function mcpRoutes(_app: FastifyInstance, _services: Services): Promise<void> {}
