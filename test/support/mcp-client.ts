import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** An MCP client connected to the service's agent endpoint (`<serviceUrl>/mcp`) with an API key. */
export async function mcpClient(serviceUrl: string, key: string, name = 'test-agent'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${serviceUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return client;
}

export type ToolResult = Awaited<ReturnType<Client['callTool']>>;

/** A tool result's first text content, parsed as JSON. */
export const toolJson = (r: ToolResult) => JSON.parse((r.content as Array<{ text: string }>)[0]!.text);
