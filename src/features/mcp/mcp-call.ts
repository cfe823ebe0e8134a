import type { ApiTool } from "./mcp-tools";

/** A request to the Worker's own API: the same app, bindings and invocation as the /mcp request. */
export type CallApi = (request: Request) => Promise<Response>;

export interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  isError: boolean;
}

const failure = (text: string): ToolResult => ({ content: [{ type: "text", text }], isError: true });

const scalar = (value: unknown) => (typeof value === "object" && value !== null ? JSON.stringify(value) : String(value));

/**
 * The API request a tool call stands for: path parameters in the path (encoded), query parameters, `body` as JSON, and
 * the call's Idempotency-Key when its operation takes one.
 */
export function requestOf(
  tool: ApiTool,
  args: Record<string, unknown>,
  origin: string,
  token: string,
  idempotencyKey?: string,
): Request | string {
  let path = tool.path;
  for (const name of tool.pathParameters) {
    const value = args[name];
    if (value === undefined || value === null || value === "") return `Missing argument '${name}'.`;
    path = path.replace(`{${name}}`, encodeURIComponent(scalar(value)));
  }
  const url = new URL(path, origin);
  for (const name of tool.queryParameters) {
    const value = args[name];
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, scalar(item));
  }
  const headers = new Headers({ Authorization: `Bearer ${token}`, Accept: "application/json" });
  const sendsBody = tool.body && args.body !== undefined;
  if (sendsBody) headers.set("Content-Type", "application/json");
  if (idempotencyKey !== undefined) headers.set("Idempotency-Key", idempotencyKey);
  return new Request(url, { method: tool.method, headers, body: sendsBody ? JSON.stringify(args.body) : null });
}

/** The `cursor` of a `Link: <…>; rel="next"` header, for the assistant's next call. */
function nextCursor(link: string | null): string | null {
  const next = link?.split(",").find((part) => /;\s*rel="?next"?/.test(part));
  const url = next && /<([^>]+)>/.exec(next)?.[1];
  return url ? new URL(url, "http://x").searchParams.get("cursor") : null;
}

/**
 * Calls the operation with the caller's own token, so its permissions, tenancy and problems are exactly the API's:
 * the answer's body is the tool's text, an error status (a problem document) a tool error.
 */
export async function callTool(
  tool: ApiTool,
  args: Record<string, unknown>,
  call: { origin: string; token: string; callApi: CallApi; idempotencyKey?: string },
) {
  const { origin, token, callApi, idempotencyKey } = call;
  const request = requestOf(tool, args, origin, token, idempotencyKey);
  if (typeof request === "string") return failure(request);
  const response = await callApi(request);
  const text = await response.text();
  const content: ToolResult["content"] = [{ type: "text", text: text || `${response.status} ${response.statusText}` }];
  const cursor = nextCursor(response.headers.get("Link"));
  if (cursor) content.push({ type: "text", text: `More remain: call ${tool.name} again with cursor "${cursor}".` });
  return { content, isError: response.status >= 400 } satisfies ToolResult;
}
