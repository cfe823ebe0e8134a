import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { verifyAccessToken } from "@/auth/access-token";
import { isDeviceToken } from "@/auth/device-token";
import { createRouter } from "@/platform/create-app";
import type { AppBindings } from "@/platform/http/env";
import { mcpRateLimit } from "@/platform/middleware/rate-limit";
import { forbidden, unauthorized } from "@/problems/problem";

/** The Worker's own fetch over every feature app (src/app.ts passes it): where a tool call goes. */
export type DispatchToApp = (request: Request, env: Env, ctx: Context["executionCtx"] | undefined) => Promise<Response>;

export const MCP_PATH = "/mcp";

let server: typeof import("./mcp-server") | undefined;
/** The MCP SDK is imported on the first /mcp request of an isolate, never at startup nor with the document. */
export const loadMcpServer = async () => (server ??= await import("./mcp-server"));

const bearerOf = (authorization: string | undefined) => /^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1];

/**
 * The caller of /mcp: the API's own bearer access token (a kiosk's device token is for the kiosk operations only), set
 * as the request's principal before the rate limit, so only valid tokens count.
 */
const authenticateCaller = createMiddleware<AppBindings>(async (c, next) => {
  const token = bearerOf(c.req.header("authorization"));
  if (!token) throw unauthorized("MISSING_BEARER_TOKEN", "Send an access token as 'Authorization: Bearer <token>'.");
  if (isDeviceToken(token)) throw forbidden("A device token is good only for the kiosk operations (/api/kiosk/…) of its location.");
  const principal = await verifyAccessToken(token, c.env.TOKEN_SECRET);
  if (!principal) throw unauthorized("INVALID_ACCESS_TOKEN", "The access token is invalid or has expired.");
  c.set("principal", principal);
  await next();
});

/**
 * `/mcp`: the Model Context Protocol over streamable HTTP (stateless, JSON answers), with the API's access tokens. Its
 * tools are the document's operations (src/features/mcp/mcp-tools.ts); each call is a request to this same app with
 * the caller's token. Beyond its own limit per token (`mcp` of RATE_LIMITS) it answers HTTP 429, the API's
 * `RATE_LIMITED` problem with `Retry-After`, before reading the JSON-RPC message: the streamable HTTP transport lets a
 * server refuse a POST with an HTTP error status, and the MCP SDK's client reports it with that status.
 */
export function mcpRouter(dispatch: DispatchToApp) {
  return createRouter().all(MCP_PATH, authenticateCaller, mcpRateLimit, async (c) => {
    const caller = { principal: c.var.principal, token: bearerOf(c.req.header("authorization")) ?? "" };
    // Stateless: no stream for the server to speak first on (GET) and no session to end (DELETE), which the
    // specification lets a server decline with 405.
    if (c.req.method !== "POST") return Response.json(METHOD_NOT_ALLOWED, { status: 405, headers: { Allow: "POST" } });
    let ctx: Context["executionCtx"] | undefined;
    try {
      ctx = c.executionCtx;
    } catch {
      // app.request without an execution context (Node-side checks): the API's writes then drain nothing in the background.
    }
    const callApi = (request: Request) => dispatch(request, c.env, ctx);
    return (await loadMcpServer()).serveMcp(c.req.raw, { ...caller, callApi });
  });
}

const METHOD_NOT_ALLOWED = {
  jsonrpc: "2.0",
  error: { code: -32000, message: "Method not allowed: this server is stateless; POST JSON-RPC messages." },
  id: null,
};
