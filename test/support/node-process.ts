import { spawn } from 'node:child_process';

/** Runs `node <args>` (this test run's Node unless `node` says otherwise) to its end: exit code and stdout+stderr. */
export function runNode(args: string[], node = process.execPath): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    // A signal is no exit code: never mistaken for success.
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}
