import { Client } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

/** What every MCP client below offers a test: the same calls an agent makes. */
export type AnyClient = {
  listTools(): Promise<{ tools: Array<{ name: string; inputSchema: unknown; outputSchema?: unknown }> }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<{
    isError?: boolean;
    structuredContent?: unknown;
    content: unknown;
  }>;
  /** The revision client and server settled on. */
  revision(): string | undefined;
  close(): Promise<void>;
};

/**
 * The three clients a host may bring today: SDK v2 negotiating (it probes `server/discover` and
 * speaks 2026-07-28), SDK v2 without negotiation (it begins with `initialize`, 2025-11-25), and
 * the 1.x SDK (2025-11-25, as every host shipped before v2).
 */
export const CLIENTS = {
  'SDK v2, negotiated (2026-07-28)': (url, headers) => v2(url, headers, 'auto'),
  'SDK v2, initialize (2025-11-25)': (url, headers) => v2(url, headers, 'legacy'),
  'SDK 1.x (2025-11-25)': async (url, headers) => {
    const client = new V1Client({ name: 'airkey-test-v1', version: '1.0.0' });
    const transport = new V1Transport(url, { requestInit: { headers } });
    await client.connect(transport);
    return {
      listTools: () => client.listTools(),
      callTool: (params) => client.callTool(params) as ReturnType<AnyClient['callTool']>,
      revision: () => transport.protocolVersion,
      close: () => client.close(),
    };
  },
} satisfies Record<string, (url: URL, headers: Record<string, string>) => Promise<AnyClient>>;

export const EXPECTED_REVISION: Record<keyof typeof CLIENTS, string> = {
  'SDK v2, negotiated (2026-07-28)': '2026-07-28',
  'SDK v2, initialize (2025-11-25)': '2025-11-25',
  'SDK 1.x (2025-11-25)': '2025-11-25',
};

async function v2(url: URL, headers: Record<string, string>, mode: 'auto' | 'legacy'): Promise<AnyClient> {
  const client = new Client({ name: 'airkey-test-v2', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return {
    listTools: () => client.listTools(),
    callTool: (params) => client.callTool(params),
    revision: () => client.getNegotiatedProtocolVersion(),
    close: () => client.close(),
  };
}
