import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';

/** A host name the tests' resolver answers with 127.0.0.1 (the certificate names it too). */
export const DOCUMENT_HOST = 'docs.example';

export type DocumentServer = {
  /** `https://127.0.0.1:{port}` */
  origin: string;
  port: number;
  /** The private CA's certificate (PEM) on disk, for a child process's NODE_EXTRA_CA_CERTS; gone after close. */
  caFile: string;
  /** What each path answers: a body (JSON when an object) and its headers. */
  documents: Map<string, { body: unknown; headers?: Record<string, string> }>;
  /** Every path asked for, in order. */
  requested: string[];
  close(): Promise<void>;
};

/**
 * An https server for client metadata documents, its certificate issued by a private CA made here
 * with openssl. The CA is added to this process's default trust store, which is what
 * NODE_EXTRA_CA_CERTS does for a server started as a child process (given `caFile`).
 */
export async function startDocumentServer(): Promise<DocumentServer> {
  const dir = mkdtempSync(join(tmpdir(), 'airkey-ca-'));
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  run(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '1',
    '-subj',
    '/CN=airkey test CA',
  );
  run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'srv.key', '-out', 'srv.csr', '-subj', '/CN=localhost');
  writeFileSync(join(dir, 'ext.cnf'), `subjectAltName=IP:127.0.0.1,DNS:${DOCUMENT_HOST}\n`);
  run(
    'x509',
    '-req',
    '-in',
    'srv.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'srv.crt',
    '-days',
    '1',
    '-extfile',
    'ext.cnf',
  );
  const [ca, key, cert] = ['ca.crt', 'srv.key', 'srv.crt'].map((name) => readFileSync(join(dir, name), 'utf8'));
  // Only the CA's certificate stays, for a child process to trust; the keys go at once.
  for (const name of ['ca.key', 'ca.srl', 'srv.key', 'srv.csr', 'srv.crt', 'ext.cnf'])
    rmSync(join(dir, name), { force: true });
  tls.setDefaultCACertificates([...tls.getCACertificates('default'), ca!]);

  const documents: DocumentServer['documents'] = new Map();
  const requested: string[] = [];
  const server: Server = createServer({ key, cert }, (request, response) => {
    requested.push(request.url ?? '');
    const found = documents.get(request.url ?? '');
    if (!found) return void response.writeHead(404).end();
    const text = typeof found.body === 'string' ? found.body : JSON.stringify(found.body);
    response.writeHead(200, { 'content-type': 'application/json', ...found.headers }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    origin: `https://127.0.0.1:${port}`,
    port,
    caFile: join(dir, 'ca.crt'),
    documents,
    requested,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
}
