/**
 * The MCP endpoint's server, loaded on the first /mcp request (src/features/mcp/mcp.index.ts): the MCP SDK never
 * costs a punch. Stateless streamable HTTP: every request gets its own server and transport, answered as JSON.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import type { Principal } from "@/domain/permissions";
import { MAX_BODY_BYTES } from "@/platform/create-app";
import { type CallApi, callTool } from "./mcp-call";
import { exposesOperation } from "./mcp-exposure";
import { idempotencyKeyOf } from "./mcp-idempotency";
import { type ApiTool, type OpenApiDocument, toolsOf } from "./mcp-tools";

export interface McpCaller {
  principal: Principal;
  token: string;
  callApi: CallApi;
}

const SERVER_INFO = { name: "shiftline", title: "Shiftline API", version: "1.0.0" };
const INSTRUCTIONS =
  "Each tool is one operation of the Shiftline REST API (GET /api/openapi.json), called with your access token: its " +
  "answer is the API's JSON, an error its RFC 9457 problem. Lists are paged: a tool's answer names the cursor of the next page.";

/**
 * The server only validates what it elicits from a client (this one elicits nothing); the SDK's default, Ajv, compiles
 * validators with `new Function`, which Workers refuse.
 */
const NO_ELICITATION: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: "This server elicits nothing." }),
};

let catalogue: ApiTool[] | undefined;

/** The tools of the served document, built once per isolate from the app's own `GET /api/openapi.json`. */
async function toolsFor(origin: string, callApi: CallApi): Promise<ApiTool[]> {
  if (catalogue) return catalogue;
  const response = await callApi(new Request(new URL("/api/openapi.json", origin)));
  if (!response.ok) throw new McpError(ErrorCode.InternalError, `The API document answered ${response.status}.`);
  catalogue ??= toolsOf((await response.json()) as OpenApiDocument);
  return catalogue;
}

const describe = ({ name, title, description, inputSchema, readOnly, method }: ApiTool) => ({
  name,
  title,
  description,
  inputSchema,
  annotations: {
    title,
    readOnlyHint: readOnly,
    destructiveHint: method === "DELETE",
    idempotentHint: method !== "POST",
    openWorldHint: false,
  },
});

function serverFor(origin: string, caller: McpCaller) {
  // Low-level Server, not McpServer: the tools' input schemas are the document's JSON Schema, not zod shapes.
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: NO_ELICITATION });
  const exposed = async () => (await toolsFor(origin, caller.callApi)).filter((tool) => exposesOperation(caller.principal, tool));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: (await exposed()).map(describe) }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }, { requestId }) => {
    const tool = (await exposed()).find((candidate) => candidate.name === params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `No tool '${params.name}' for this token.`);
    const args = params.arguments ?? {};
    const key = await idempotencyKeyOf(tool, args, requestId, caller.principal);
    if (key && "problem" in key) return { content: [{ type: "text" as const, text: key.problem }], isError: true };
    return callTool(tool, args, { origin, token: caller.token, callApi: caller.callApi, idempotencyKey: key?.key });
  });
  return server;
}

/** Answers one MCP request (JSON-RPC over streamable HTTP) for an authenticated caller. */
export async function serveMcp(request: Request, caller: McpCaller): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MAX_BODY_BYTES,
  });
  const server = serverFor(new URL(request.url).origin, caller);
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}
