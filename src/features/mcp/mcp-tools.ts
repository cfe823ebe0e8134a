/**
 * The MCP tools of the API: one per operation of the served OpenAPI document that an access token may call (not the
 * public ones, not the kiosk's device-token operations, not a non-JSON upload). A tool's name is the operationId, its
 * description the summary and description, its input the path and query parameters by name plus `body`, and for an
 * operation taking an Idempotency-Key, `idempotencyKey` (src/features/mcp/mcp-idempotency.ts).
 */

type Json = Record<string, unknown>;

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Json;
}

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: unknown[];
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { $ref?: string; required?: boolean; content?: Record<string, { schema?: Json }> };
  "x-required-scope"?: string;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation | undefined>>;
  components?: {
    schemas?: Record<string, Json>;
    parameters?: Record<string, Parameter>;
    requestBodies?: Record<string, { required?: boolean; content?: Record<string, { schema?: Json }> }>;
  };
}

export interface ApiTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Json & { type: "object" };
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The document's path, with `{name}` placeholders. */
  path: string;
  pathParameters: string[];
  queryParameters: string[];
  /** Takes a JSON body (argument `body`). */
  body: boolean;
  /** A GET: changes nothing. */
  readOnly: boolean;
  /** The token scope the operation needs (its `x-required-scope`; null: none). */
  requiredScope: string | null;
  /** Takes an `Idempotency-Key` header (argument `idempotencyKey`, else one derived from the call). */
  idempotent: boolean;
}

const METHODS = ["get", "post", "put", "patch", "delete"] as const;
/** The kiosk's operations take a device token, never an access token (README, Kiosks). */
const DEVICE_ONLY = /^\/api\/kiosk\//;
const SCHEMA_REF = /^#\/components\/schemas\/(.+)$/;

const lastSegment = (ref: string) => ref.slice(ref.lastIndexOf("/") + 1);

/** `#/components/schemas/X` → `#/$defs/X` throughout, collecting every schema reached (transitively) into `defs`. */
function withLocalRefs(schema: unknown, document: OpenApiDocument, defs: Record<string, unknown>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => withLocalRefs(item, document, defs));
  if (schema === null || typeof schema !== "object") return schema;
  const copy: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    const name = key === "$ref" && typeof value === "string" ? SCHEMA_REF.exec(value)?.[1] : undefined;
    if (name === undefined) {
      copy[key] = withLocalRefs(value, document, defs);
      continue;
    }
    copy.$ref = `#/$defs/${name}`;
    if (!(name in defs)) {
      defs[name] = true;
      defs[name] = withLocalRefs(document.components?.schemas?.[name] ?? {}, document, defs);
    }
  }
  return copy;
}

function declaredParameters(operation: Operation, document: OpenApiDocument): Parameter[] {
  return (operation.parameters ?? [])
    .map((p) => ("$ref" in p ? document.components?.parameters?.[lastSegment(p.$ref)] : p))
    .filter((p): p is Parameter => p !== undefined);
}

const parametersOf = (operation: Operation, document: OpenApiDocument) =>
  declaredParameters(operation, document).filter((p) => p.in === "path" || p.in === "query");

const takesIdempotencyKey = (operation: Operation, document: OpenApiDocument) =>
  declaredParameters(operation, document).some((p) => p.in === "header" && p.name.toLowerCase() === "idempotency-key");

const IDEMPOTENCY_KEY_INPUT = {
  type: "string",
  minLength: 1,
  maxLength: 255,
  description:
    "Sent as the operation's Idempotency-Key: a call repeated with the same key (and the same arguments) within 24 h " +
    "writes once and answers as the first did. Without it the key is derived from the JSON-RPC request id, the token's " +
    "subject, the tool and its arguments, so a retried tools/call with the same request id writes once.",
};

function jsonBodyOf(operation: Operation, document: OpenApiDocument) {
  const declared = operation.requestBody;
  if (!declared) return { schema: undefined, required: false, json: true };
  const body = declared.$ref ? document.components?.requestBodies?.[lastSegment(declared.$ref)] : declared;
  const media = Object.entries(body?.content ?? {}).find(([type]) => type === "application/json" || type.endsWith("+json"));
  return { schema: media?.[1].schema ?? {}, required: body?.required === true, json: media !== undefined };
}

function toolOf(path: string, method: (typeof METHODS)[number], operation: Operation, document: OpenApiDocument): ApiTool | null {
  const bearer = operation.security === undefined || operation.security.length > 0;
  if (!operation.operationId || !bearer || DEVICE_ONLY.test(path)) return null;
  const body = jsonBodyOf(operation, document);
  if (!body.json) return null;
  const defs: Record<string, unknown> = {};
  const properties: Json = {};
  const required: string[] = [];
  const parameters = parametersOf(operation, document);
  for (const parameter of parameters) {
    // One flat input: a path and a query parameter of one name (or one named `body` or `idempotencyKey`) could not both be passed.
    if (parameter.name in properties || parameter.name === "body" || parameter.name === "idempotencyKey")
      throw new Error(`${operation.operationId}: two inputs named ${parameter.name}`);
    const schema = withLocalRefs(parameter.schema ?? {}, document, defs) as Json;
    properties[parameter.name] = parameter.description ? { ...schema, description: parameter.description } : schema;
    if (parameter.required || parameter.in === "path") required.push(parameter.name);
  }
  if (body.schema) {
    properties.body = withLocalRefs(body.schema, document, defs);
    if (body.required) required.push("body");
  }
  const idempotent = takesIdempotencyKey(operation, document);
  if (idempotent) properties.idempotencyKey = IDEMPOTENCY_KEY_INPUT;
  const summary = operation.summary ?? operation.operationId;
  return {
    name: operation.operationId,
    title: summary,
    description: operation.description ? `${summary}\n\n${operation.description}` : summary,
    inputSchema: {
      type: "object",
      properties,
      ...(required.length > 0 ? { required } : {}),
      ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
    },
    method: method.toUpperCase() as ApiTool["method"],
    path,
    pathParameters: parameters.filter((p) => p.in === "path").map((p) => p.name),
    queryParameters: parameters.filter((p) => p.in === "query").map((p) => p.name),
    body: body.schema !== undefined,
    readOnly: method === "get",
    requiredScope: operation["x-required-scope"] ?? null,
    idempotent,
  };
}

/** Every tool of the document, in its order. */
export function toolsOf(document: OpenApiDocument): ApiTool[] {
  const tools: ApiTool[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      const tool = operation && toolOf(path, method, operation, document);
      if (tool) tools.push(tool);
    }
  }
  return tools;
}
