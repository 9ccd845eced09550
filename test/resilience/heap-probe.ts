/**
 * Reads a server process's memory through its inspector (started with `--inspect=127.0.0.1:<port>`):
 * a full, forced garbage collection first, so `heapUsedMb` is what the process retains, not what
 * the collector has yet to reclaim. RSS says little over seconds: V8 and the allocator keep pages
 * they freed, and grow the heap in steps after warm-up.
 */
export type MemoryFigures = { heapUsedMb: number; rssMb: number };

type Reply = { id: number; result?: { result?: { value?: string } }; error?: { message: string } };

export async function memoryAfterGc(inspectorPort: number): Promise<MemoryFigures> {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  let nextId = 0;
  const send = (method: string, params: object = {}) =>
    new Promise<Reply>((resolve, reject) => {
      const id = ++nextId;
      const onMessage = (event: MessageEvent) => {
        const reply = JSON.parse(String(event.data)) as Reply;
        if (reply.id !== id) return;
        socket.removeEventListener('message', onMessage);
        if (reply.error) reject(new Error(`${method}: ${reply.error.message}`));
        else resolve(reply);
      };
      socket.addEventListener('message', onMessage);
      socket.send(JSON.stringify({ id, method, params }));
    });
  try {
    await send('HeapProfiler.collectGarbage');
    const reply = await send('Runtime.evaluate', {
      expression: 'JSON.stringify(process.memoryUsage())',
      returnByValue: true,
    });
    const usage = JSON.parse(reply.result!.result!.value!) as { heapUsed: number; rss: number };
    return { heapUsedMb: usage.heapUsed / 2 ** 20, rssMb: usage.rss / 2 ** 20 };
  } finally {
    socket.close();
  }
}
