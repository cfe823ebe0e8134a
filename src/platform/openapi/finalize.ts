import type { OpenAPIHono } from "@hono/zod-openapi";
import { LATEST_API_VERSION } from "@/domain/api-versions";
import { requiredScope } from "@/domain/token-scopes";
import { takeDeclaredFlags } from "@/platform/routes/define-route";

type OpenAPIObject = ReturnType<OpenAPIHono["getOpenAPI31Document"]>;

import { codesOfStatus, PROBLEM_CODES, type ProblemCode } from "@/problems/codes";
import { PROBLEM_CODES_KEY, PROBLEM_LABELS, type ProblemStatusCode } from "./helpers";

/**
 * What every operation shares, declared once after the routes are generated: headers, Idempotency-Key, the
 * platform's error codes, request bodies read as input. Routes declare only what is theirs.
 */

// biome-ignore lint/suspicious/noExplicitAny: the generated document is walked as untyped JSON
type Json = Record<string, any>;

interface OperationContext {
  path: string;
  method: string;
  operation: Json;
  secured: boolean;
  idempotent: boolean;
  /** The path names the organization acted on (scope `organization`). */
  inOrganization: boolean;
  hasBody: boolean;
  isList: boolean;
  /** The token scope it needs (domain/token-scopes), null for none. */
  scope: string | null;
}

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

const HEADERS: Json = {
  "Shiftline-Version": {
    description: "The API version this response is served in (see the document's introduction for the versions).",
    schema: { type: "string", format: "date", example: LATEST_API_VERSION },
  },
  "X-Request-Id": {
    description: "Identifies this request in the service's logs; quote it when reporting a problem.",
    schema: { type: "string" },
  },
  "X-D1-Bookmark": {
    description:
      "The database session's bookmark after this request, prefixed with the database (organization shard) it belongs " +
      "to. Send it back in the `X-D1-Bookmark` request header and the next request reads at least what this one saw " +
      "and wrote (read-your-writes across read replicas). Opaque: keep and send it as received.",
    schema: { type: "string", example: "DB_SHARD_2:00000085-0000024c-00004c6d-8e61117bf38d7adb71b934ebbf891683" },
  },
  Link: {
    description: 'RFC 8288 `<…>; rel="next"` to the next page, present while more records remain.',
    schema: { type: "string", example: '</api/organizations?limit=100&cursor=MDE5M2E1YTA>; rel="next"' },
  },
  "Idempotent-Replayed": {
    description: "`true` when this is the stored response of an earlier request with the same Idempotency-Key.",
    schema: { type: "string", enum: ["true"] },
  },
  "Retry-After": {
    description:
      "Seconds to wait before retrying: until the rate-limit window resets (429), until a locked PIN opens again (423), or while the organization is moved between databases (503).",
    schema: { type: "integer", minimum: 1 },
  },
  "RateLimit-Policy": {
    description: "The quota policy (draft-ietf-httpapi-ratelimit-headers-10): name, quota `q` and window `w` in seconds.",
    schema: { type: "string", example: '"api";q=600;w=60' },
  },
  RateLimit: {
    description: "The policy's remaining quota `r` and seconds `t` until it resets.",
    schema: { type: "string", example: '"api";r=0;t=30' },
  },
  "Content-Disposition": {
    description: "`attachment` with the export's file name.",
    schema: { type: "string", example: 'attachment; filename="timesheets-2026-03-01-2026-03-31.csv"' },
  },
};

const PARAMETERS: Json = {
  ShiftlineVersion: {
    name: "Shiftline-Version",
    in: "header",
    required: false,
    description:
      "Serve this request in the API version of this date (the latest version on or before it) instead of the " +
      "partner's pinned one (the version current at its first token exchange). A value that is no date, or a date " +
      "before the first version, is 400 `INVALID_API_VERSION`.",
    schema: { type: "string", format: "date", example: LATEST_API_VERSION },
  },
  D1Bookmark: {
    name: "X-D1-Bookmark",
    in: "header",
    required: false,
    description:
      "The last `X-D1-Bookmark` response header this client received: the request then reads at least what that " +
      "response saw, even on a read replica. It applies to the database it names and is ignored by another (after " +
      "the organization moved shards); one without a database prefix is `DB`'s. Anything else is 400 " +
      "`INVALID_D1_BOOKMARK`.",
    schema: {
      type: "string",
      pattern: "^([A-Za-z_][A-Za-z0-9_]*:)?[0-9a-fA-F]{8}-[0-9a-fA-F]{8}-[0-9a-fA-F]{8}-[0-9a-fA-F]{32}$",
      example: "DB_SHARD_2:00000085-0000024c-00004c6d-8e61117bf38d7adb71b934ebbf891683",
    },
  },
  IdempotencyKey: {
    name: "Idempotency-Key",
    in: "header",
    required: false,
    description:
      "Makes a retried POST safe: the first successful response for a key (per organization and caller) is stored " +
      "for 24 h and replayed with `Idempotent-Replayed: true`; the same key with another body is 422 " +
      "`IDEMPOTENCY_KEY_REUSED`, a retry while the first still runs is 409 `IDEMPOTENCY_REQUEST_IN_PROGRESS`.",
    schema: { type: "string", minLength: 1, maxLength: 255, example: "punch-0001" },
  },
};

/** Response headers by the responses they belong on; a new header is one line here and one in HEADERS. */
const RESPONSE_HEADERS: [name: string, applies: (op: OperationContext, status: string, response: Json) => boolean][] = [
  ["X-Request-Id", () => true],
  ["X-D1-Bookmark", () => true],
  ["Shiftline-Version", () => true],
  ["Link", (op, status) => op.isList && status.startsWith("2")],
  ["Idempotent-Replayed", (op, status) => op.idempotent && status.startsWith("2")],
  ["Content-Disposition", (_op, status, response) => status.startsWith("2") && Boolean(response.content?.["text/csv"])],
  ["Retry-After", (_op, status) => status === "423" || status === "429" || status === "503"],
  ["RateLimit-Policy", (_op, status) => status === "429"],
  ["RateLimit", (_op, status) => status === "429"],
];

/** Request header parameters by the operations they belong on. */
const REQUEST_PARAMETERS: [name: string, applies: (op: OperationContext) => boolean][] = [
  ["IdempotencyKey", (op) => op.idempotent],
  ["D1Bookmark", () => true],
  ["ShiftlineVersion", () => true],
];

/** The codes the platform itself answers with, by status, for an operation. */
function platformCodes(op: OperationContext): Partial<Record<ProblemStatusCode, ProblemCode[]>> {
  const parameters: Json[] = op.operation.parameters ?? [];
  const hasInput = op.hasBody || parameters.some((p) => !p.$ref);
  const { inOrganization } = op;
  return {
    400: [
      "INVALID_D1_BOOKMARK",
      "INVALID_API_VERSION",
      ...(hasInput ? (["VALIDATION_FAILED"] as const) : []),
      ...(op.hasBody ? (["MALFORMED_JSON"] as const) : []),
      ...(op.idempotent ? (["INVALID_IDEMPOTENCY_KEY"] as const) : []),
      ...(parameters.some((p) => p.in === "header" && p.name === "If-Match") ? (["INVALID_IF_MATCH"] as const) : []),
    ],
    // DEVICE_REVOKED: a revoked kiosk device's token, which every operation answers so (features/kiosk).
    401: op.secured
      ? ["MISSING_BEARER_TOKEN", "INVALID_ACCESS_TOKEN", "DEVICE_REVOKED", ...(op.method === "get" ? [] : (["TOKEN_REVOKED"] as const))]
      : [],
    403: op.secured
      ? [
          "FORBIDDEN",
          ...(op.scope !== null ? (["INSUFFICIENT_SCOPE"] as const) : []),
          ...(inOrganization ? (["ORGANIZATION_SCOPE_REQUIRED"] as const) : []),
        ]
      : [],
    404: inOrganization ? ["ORGANIZATION_NOT_FOUND"] : [],
    409: op.idempotent ? ["IDEMPOTENCY_REQUEST_IN_PROGRESS"] : [],
    413: op.hasBody ? ["PAYLOAD_TOO_LARGE"] : [],
    415: op.hasBody ? ["UNSUPPORTED_MEDIA_TYPE"] : [],
    422: op.idempotent ? ["IDEMPOTENCY_KEY_REUSED"] : [],
    // Every authenticated operation runs behind the API rate limit (exchangeToken names its own per-address one).
    429: op.secured ? ["RATE_LIMITED"] : [],
    // Every authenticated write opens with the guard that refuses an organization frozen for a move (src/shards).
    503: op.secured && op.method !== "get" ? ["ORGANIZATION_MOVING"] : [],
  };
}

const describeCodes = (status: ProblemStatusCode, codes: ProblemCode[]) =>
  `${PROBLEM_LABELS[status]}. Codes:\n\n${codes.map((c) => `- \`${c}\`: ${PROBLEM_CODES[c].meaning}`).join("\n")}`;

function completeProblems(op: OperationContext, problemSchemaRef: Json) {
  const responses: Json = op.operation.responses;
  for (const [key, codes] of Object.entries(platformCodes(op))) {
    const status = Number(key) as ProblemStatusCode;
    if (codes.length === 0) continue;
    responses[status] ??= {
      description: PROBLEM_LABELS[status],
      content: { "application/problem+json": { schema: problemSchemaRef } },
      [PROBLEM_CODES_KEY]: [],
    };
    responses[status][PROBLEM_CODES_KEY] = [...(responses[status][PROBLEM_CODES_KEY] ?? []), ...codes];
  }
  for (const [key, response] of Object.entries(responses) as [string, Json][]) {
    const status = Number(key) as ProblemStatusCode;
    if (!(status in PROBLEM_LABELS)) continue;
    const named: ProblemCode[] = response[PROBLEM_CODES_KEY] ?? [];
    // A response written by hand, without the helpers: every code the registry has for its status.
    const codes = [...new Set(named.length > 0 ? named : codesOfStatus(status))];
    response[PROBLEM_CODES_KEY] = codes;
    const routeDescription = response.description === PROBLEM_LABELS[status] ? "" : `${response.description}\n\n`;
    response.description = routeDescription + describeCodes(status, codes);
    const media = response.content?.["application/problem+json"];
    if (media) media.schema = { allOf: [media.schema, { type: "object", properties: { code: { enum: codes } } }] };
  }
  // Keep responses in status order after additions.
  op.operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}

function addHeaders(op: OperationContext) {
  for (const [status, response] of Object.entries(op.operation.responses as Json)) {
    for (const [name, applies] of RESPONSE_HEADERS) {
      if (applies(op, status, response)) response.headers = { ...response.headers, [name]: ref("headers", name) };
    }
  }
  const extra = REQUEST_PARAMETERS.filter(([, applies]) => applies(op)).map(([name]) => ref("parameters", name));
  if (extra.length > 0) op.operation.parameters = [...(op.operation.parameters ?? []), ...extra];
}

/** A copy of `schema` with every schema reference replaced by its target (request bodies are never recursive). */
function inline(schema: unknown, schemas: Json): Json[string] {
  if (Array.isArray(schema)) return schema.map((s) => inline(s, schemas));
  if (!schema || typeof schema !== "object") return schema;
  const { $ref, ...rest } = schema as Json;
  if (typeof $ref === "string" && $ref.startsWith("#/components/schemas/")) {
    return { ...inline(schemas[$ref.slice("#/components/schemas/".length)], schemas), ...inline(rest, schemas) };
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, inline(v, schemas)]));
}

/**
 * Request bodies become `components.requestBodies` with their schemas inlined: generators (openapi-typescript's
 * default) then read a field with a default as optional input, while the schema components stay output shapes.
 */
function requestBodiesAsInput(document: Json, op: OperationContext) {
  const body = op.operation.requestBody;
  const schema = body?.content?.["application/json"]?.schema;
  if (!schema?.$ref) return;
  const name = schema.$ref.slice("#/components/schemas/".length);
  document.components.requestBodies ??= {};
  document.components.requestBodies[name] ??= {
    ...body,
    content: { "application/json": { schema: { title: name, ...inline(schema, document.components.schemas) } } },
  };
  op.operation.requestBody = ref("requestBodies", name);
}

/** Output shapes: a property with a default is always present in a response. */
function defaultsRequired(schema: unknown) {
  if (!schema || typeof schema !== "object") return;
  const object = schema as Json;
  if (object.properties) {
    const withDefault = Object.entries(object.properties as Json)
      .filter(([, p]) => p && typeof p === "object" && "default" in p)
      .map(([k]) => k);
    if (withDefault.length > 0) object.required = [...new Set([...(object.required ?? []), ...withDefault])];
  }
  for (const value of Object.values(object)) defaultsRequired(value);
}

function referencedSchemas(document: Json): Set<string> {
  const found = new Set<string>();
  const walk = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (!value || typeof value !== "object") return;
    for (const [k, v] of Object.entries(value)) {
      if (k === "$ref" && typeof v === "string" && v.startsWith("#/components/schemas/")) {
        const name = v.slice("#/components/schemas/".length);
        if (!found.has(name)) {
          found.add(name);
          walk(document.components.schemas[name]);
        }
      } else walk(v);
    }
  };
  walk(document.paths);
  walk(document.components.requestBodies);
  walk(document.webhooks);
  return found;
}

/**
 * The scope an operation needs, as `x-required-scope`. Not as the security requirement's scopes: OpenAPI lets a
 * bearer scheme list role names there, but Spectral's oas3-operation-security-defined wants them declared as an
 * OAuth flow's scopes, which the token exchange is not. The bearer scheme's description lists the scopes.
 */
function declareScope(op: OperationContext) {
  if (op.scope !== null) op.operation["x-required-scope"] = op.scope;
}

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

/** `webhooks`: the document's top-level webhooks (every event type's envelope), which only the events registry knows. */
export function finalizeDocument(generated: OpenAPIObject, webhooks: Record<string, unknown>): OpenAPIObject {
  const document = structuredClone(generated) as Json;
  document.components ??= {};
  document.components.headers = { ...document.components.headers, ...HEADERS };
  document.components.parameters = { ...document.components.parameters, ...PARAMETERS };
  const globallySecured = (document.security ?? []).some((r: Json) => Object.keys(r).length > 0);
  const problemSchemaRef = ref("schemas", "Problem");
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const secured = operation.security ? operation.security.some((r: Json) => Object.keys(r).length > 0) : globallySecured;
      const flags = takeDeclaredFlags(method, path, operation);
      const op: OperationContext = {
        path,
        method,
        operation,
        secured,
        idempotent: flags.idempotency !== undefined,
        inOrganization: flags.scope === "organization",
        hasBody: Boolean(operation.requestBody),
        isList: flags.list === true,
        scope: secured ? requiredScope(operation.tags?.[0], method) : null,
      };
      declareScope(op);
      completeProblems(op, problemSchemaRef);
      addHeaders(op);
      requestBodiesAsInput(document, op);
    }
  }
  // Schemas no operation and no event refers to are left out (an event's data may be a schema only events carry).
  document.webhooks = webhooks;
  const used = referencedSchemas(document);
  for (const name of Object.keys(document.components.schemas)) {
    if (!used.has(name)) delete document.components.schemas[name];
  }
  defaultsRequired(document.components.schemas);
  return document as OpenAPIObject;
}
