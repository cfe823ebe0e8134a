import { app } from "@/app";

/** Where the document is fetched from in these checks: its `servers` names the origin that answers. */
export const DOCUMENT_URL = "https://api.shiftline.dev/api/openapi.json";

/** The document exactly as `GET /api/openapi.json` serves it; serving it touches no binding. */
export async function openApiDocument(): Promise<{ text: string; document: OpenApiDocument }> {
  const response = await app.request(DOCUMENT_URL, {}, { DB: {} });
  if (response.status !== 200) throw new Error(`GET /api/openapi.json: ${response.status} ${await response.text()}`);
  const text = await response.text();
  return { text, document: JSON.parse(text) as OpenApiDocument };
}

export interface Reference {
  $ref: string;
}

export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Record<string, unknown>;
}

export interface Response {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: Record<string, unknown> }>;
  "x-problem-codes"?: string[];
}

export interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: (Parameter | Reference)[];
  requestBody?: unknown;
  responses: Record<string, Response>;
}

export interface OpenApiDocument {
  openapi: string;
  servers?: { url: string }[];
  security?: Record<string, string[]>[];
  tags?: { name: string }[];
  paths: Record<string, Partial<Record<string, Operation>>>;
  components: {
    schemas: Record<string, Record<string, any>>;
    parameters?: Record<string, Parameter>;
    requestBodies?: Record<string, { content: Record<string, { schema: Record<string, any> }> }>;
  };
}

/** A parameter with its reference followed. */
export const resolveParameter = (document: OpenApiDocument, parameter: Parameter | Reference): Parameter =>
  "$ref" in parameter ? document.components.parameters![parameter.$ref.split("/").pop()!]! : parameter;

export const METHODS = ["get", "put", "post", "delete", "patch", "options", "head", "trace"] as const;

export function* operations(document: OpenApiDocument) {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) yield { path, method, operation };
    }
  }
}
