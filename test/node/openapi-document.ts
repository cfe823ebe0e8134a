import { app } from "../../src/app";

/** The document exactly as `GET /api/openapi.json` serves it; serving it touches no binding. */
export async function openApiDocument(): Promise<{ text: string; document: OpenApiDocument }> {
  const response = await app.request("/api/openapi.json", {}, { DB: {} });
  if (response.status !== 200) throw new Error(`GET /api/openapi.json: ${response.status} ${await response.text()}`);
  const text = await response.text();
  return { text, document: JSON.parse(text) as OpenApiDocument };
}

export interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, unknown> }>;
}

export interface OpenApiDocument {
  openapi: string;
  security?: Record<string, string[]>[];
  tags?: { name: string }[];
  paths: Record<string, Partial<Record<string, Operation>>>;
}

export const METHODS = ["get", "put", "post", "delete", "patch", "options", "head", "trace"] as const;

export function* operations(document: OpenApiDocument) {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) yield { path, method, operation };
    }
  }
}
