import { exports } from "cloudflare:workers";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export const MCP_URL = "http://shiftline.test/mcp";

/** The MCP SDK's own client, over streamable HTTP into the Worker's fetch, with the caller's access token. */
export async function connectMcp(token: string, headers: Record<string, string> = {}) {
  const client = new Client({ name: "shiftline-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(MCP_URL), {
    requestInit: { headers: { Authorization: `Bearer ${token}`, ...headers } },
    fetch: (url, init) => exports.default.fetch(new Request(url, init)),
  });
  await client.connect(transport);
  return client;
}

export const textOf = (result: Awaited<ReturnType<Client["callTool"]>>) => (result.content as { type: string; text: string }[])[0]!.text;
