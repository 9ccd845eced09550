import { createServer, request as httpRequest, type Server } from 'node:http';
import { chmodSync, existsSync, mkdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { problemOf } from '../problems/problem.ts';
import type { Problem } from '../problems/problem-schema.ts';
import { operationInputs, parseOperation, type AdminOperations, type OperationName } from './operations.ts';

/** The local-only channel the CLI uses to reach a server that owns the embedded database. */
export const adminSocketPath = (dataDir: string) => join(dataDir, 'airkey-admin.sock');

export class RemoteOperationError extends Error {
  readonly problem: Problem;
  constructor(problem: Problem) {
    super(problem.detail);
    this.problem = problem;
  }
}

/**
 * Listens on a Unix socket inside the data directory, readable by the owner only. Operations wait
 * for `ready` so a CLI call that arrives during start-up runs once the database is open.
 */
export async function serveAdminSocket(dataDir: string, ready: Promise<AdminOperations>): Promise<Server> {
  const path = adminSocketPath(dataDir);
  mkdirSync(dataDir, { recursive: true });
  if (existsSync(path)) unlinkSync(path);
  const server = createServer((request, response) => {
    const name = request.url?.slice(1) as OperationName;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => void answer());
    const answer = async () => {
      try {
        if (request.method !== 'POST' || !(name in operationInputs)) throw new Error('unknown operation');
        const operations = await ready;
        const input = parseOperation(name, JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
        const result = await (operations[name] as (input: unknown) => Promise<unknown>)(input);
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
      } catch (error) {
        const problem = problemOf(error);
        response.writeHead(problem.status, { 'content-type': 'application/problem+json' }).end(JSON.stringify(problem));
      }
    };
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(path, resolve));
  chmodSync(path, 0o600);
  return server;
}

/** Operations sent to the server on `socketPath`; rejects with ECONNREFUSED/ENOENT when none listens. */
export function remoteOperations(socketPath: string): AdminOperations {
  const call = (name: OperationName) => (input: unknown) =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify(input);
      const request = httpRequest(
        {
          socketPath,
          path: `/${name}`,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
            if (response.statusCode === 200) resolve(parsed);
            else reject(new RemoteOperationError(parsed as Problem));
          });
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  return Object.fromEntries(
    Object.keys(operationInputs).map((name) => [name, call(name as OperationName)]),
  ) as AdminOperations;
}

/** True when a server answers on the socket. */
export async function isServerListening(socketPath: string): Promise<boolean> {
  if (!existsSync(socketPath)) return false;
  return new Promise((resolve) => {
    const request = httpRequest({ socketPath, path: '/migrate', method: 'POST' }, (response) => {
      response.resume();
      resolve(true);
    });
    request.on('error', () => resolve(false));
    request.end('{}');
  });
}
